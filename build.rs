//! Compiles the platform package (`proto/tabletop/v1`) and each game's
//! package (`proto/xodus/v1`, `proto/legio/v1`) into Rust with the
//! pure-Rust `protox` compiler (no `protoc` needed on any machine), then
//! hands the descriptor set to `tonic-prost-build`. Messages get their
//! protobuf type names so they pack into and out of `google.protobuf.Any`.
//! The encoded descriptor set is also written to
//! `OUT_DIR/api_descriptor.bin` for gRPC server reflection.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files = [
        "tabletop/v1/game.proto",
        "tabletop/v1/service.proto",
        "xodus/v1/setup.proto",
        "xodus/v1/state.proto",
        "xodus/v1/events.proto",
        "xodus/v1/choice.proto",
        "xodus/v1/talk.proto",
        "legio/v1/setup.proto",
        "legio/v1/state.proto",
        "legio/v1/events.proto",
        "legio/v1/choice.proto",
        "legio/v1/talk.proto",
    ];
    println!("cargo:rerun-if-changed=proto");
    for f in files {
        println!("cargo:rerun-if-changed=proto/{f}");
    }
    let mut compiler = protox::Compiler::new(["proto"])?;
    compiler.include_imports(true).include_source_info(true);
    compiler.open_files(files)?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out_dir.join("api_descriptor.bin"), compiler.encode_file_descriptor_set())?;
    let mut config = tonic_prost_build::Config::new();
    config.enable_type_names();
    // Type URLs as every protobuf library writes them:
    // "type.googleapis.com/xodus.v1.XodusState".
    config.type_name_domain(["."], "type.googleapis.com");
    tonic_prost_build::configure()
        .type_attribute(".", "#[allow(clippy::all)]")
        .build_client(true)
        .build_server(true)
        .compile_fds_with_config(compiler.file_descriptor_set(), config)?;
    Ok(())
}
