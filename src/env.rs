//! The service's environment variables: `TABLETOP_<NAME>`, with the names
//! of earlier releases, `XODUS_<NAME>`, still read when the new one is not
//! set, so deployments written for either keep working.

/// The prefix of every variable's name.
pub const PREFIX: &str = "TABLETOP_";
/// The prefix earlier releases used; read when the new name is unset.
pub const OLD_PREFIX: &str = "XODUS_";

/// `TABLETOP_<name>`, else `XODUS_<name>`.
pub fn var(name: &str) -> Option<String> {
    std::env::var(format!("{PREFIX}{name}")).ok().or_else(|| std::env::var(format!("{OLD_PREFIX}{name}")).ok())
}

/// `cmd` with every argument read from `TABLETOP_<NAME>` reading
/// `XODUS_<NAME>` instead when only the old name is set, in every
/// subcommand too. The help shows the new names.
#[cfg(feature = "cli")]
pub fn with_old_names(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|arg| {
        let old = arg
            .get_env()
            .and_then(|env| env.to_str())
            .and_then(|env| env.strip_prefix(PREFIX).map(|rest| (env.to_string(), format!("{OLD_PREFIX}{rest}"))));
        match old {
            Some((new, old)) if std::env::var_os(&new).is_none() && std::env::var_os(&old).is_some() => arg.env(old),
            _ => arg,
        }
    })
    .mut_subcommands(with_old_names)
}

/// Parses the process's command line as `T`, environment variables read
/// under both names (see [`with_old_names`]); exits with clap's message on
/// an error, as `T::parse()` does.
#[cfg(feature = "cli")]
pub fn parse<T: clap::Parser>() -> T {
    let mut cmd = with_old_names(T::command());
    let matches = cmd.get_matches_mut();
    T::from_arg_matches(&matches).unwrap_or_else(|e| e.format(&mut cmd).exit())
}
