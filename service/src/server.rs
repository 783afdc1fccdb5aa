//! Assembling and running the server: storage, the manager, the game
//! service with its message-size caps and promised status codes, gRPC
//! health, server reflection, gRPC-Web, the access log and call figures,
//! the per-client rate limit, the cap
//! on connections, request deadlines and graceful shutdown, bounded by a
//! grace. `run` takes a bound listener (`listen.rs`: TCP, or a Unix socket
//! for clients on the same host; `run_on` several) and a shutdown future,
//! so tests run it on port 0 and `main` stays a shim.

use crate::codes::WireCodes;
use crate::game::Registry;
use crate::limits::{Limits, rate_limit};
use crate::listen::Listener;
use crate::manager::Manager;
use crate::routing::Routed;
use crate::store::{GameStore, MemoryStore, PgOptions, PostgresStore, SqliteStore, StoreError};
use crate::web::WebConfig;
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tabletop::pb::game_service_server::GameServiceServer;
use tracing::{info, warn};

/// Where games are kept.
#[derive(Clone, Debug)]
pub enum Storage {
    /// SQLite in this directory (created if missing).
    Sqlite(PathBuf),
    /// Memory only: everything is lost at exit (tests, benchmarks).
    Memory,
    /// Benchmarks only: SQLite in this directory with commits that are not
    /// fsync'd, so a crash may lose acknowledged choices. The service
    /// bench uses it to show what the durable path costs apart from the
    /// disk; `xodus-server` never does.
    SqliteWithoutFsync(PathBuf),
    /// PostgreSQL at this URL (`postgres://user@host:port/db`), which
    /// several nodes may share; the node's name is `$TABLETOP_NODE_ID` or the
    /// host's.
    Postgres(String),
}

/// How a node joins the others on a shared database (PostgreSQL only).
#[derive(Clone, Debug, Default)]
pub struct NodeConfig {
    /// This node's name (`None`: `$TABLETOP_NODE_ID`, else the host's). Two
    /// live nodes must not share one.
    pub name: Option<String>,
    /// The URL the other nodes reach this node's gRPC at (`None`: the first
    /// TCP listener's address, unless it is a wildcard).
    pub advertise: Option<String>,
    /// How long a game's lease lasts without renewal (`None`: 10 s): a dead
    /// node's games move this long after its last renewal, plus up to a
    /// second.
    pub lease_ttl: Option<Duration>,
}

/// Everything `run` needs besides the listener.
#[derive(Clone)]
pub struct ServerConfig {
    /// Where games are kept.
    pub storage: Storage,
    /// Caps and rates.
    pub limits: Limits,
    /// The games hosted ([`Registry::standard`] for the shipped ones).
    pub registry: Registry,
    /// Static front-end files and cross-origin access for browsers.
    pub web: WebConfig,
    /// This node among others on a shared database.
    pub node: NodeConfig,
}

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The store could not be opened.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Reloading the games failed.
    #[error(transparent)]
    Load(#[from] crate::error::ServiceError),
    /// Server reflection could not be built from the descriptor set.
    #[error("reflection: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    /// The transport failed.
    #[error("transport: {0}")]
    Transport(#[from] tonic::transport::Error),
    /// A background task was lost.
    #[error("task: {0}")]
    Task(#[from] tokio::task::JoinError),
    /// A browser setting was refused.
    #[error(transparent)]
    Web(#[from] crate::web::WebError),
    /// No listener was given.
    #[error("no address to listen on")]
    NoListener,
}

/// Opens the configured store as this node; a SQLite writer polls for the
/// next request for up to `commit_poll` between batches.
pub async fn open_store(
    storage: &Storage,
    commit_poll: Duration,
    node: &NodeConfig,
) -> Result<Arc<dyn GameStore>, ServerError> {
    Ok(match storage {
        Storage::Memory => Arc::new(MemoryStore::default()),
        Storage::Sqlite(dir) | Storage::SqliteWithoutFsync(dir) => {
            let open = match storage {
                Storage::SqliteWithoutFsync(_) => SqliteStore::open_dir_without_fsync,
                _ => SqliteStore::open_dir,
            };
            let dir = dir.clone();
            let store = tokio::task::spawn_blocking(move || open(&dir, commit_poll)).await??;
            Arc::new(store)
        }
        Storage::Postgres(url) => {
            let url = url.clone();
            let mut options = PgOptions::default();
            if let Some(name) = &node.name {
                options.node = name.clone();
            }
            if let Some(ttl) = node.lease_ttl {
                options.lease_ttl = ttl;
                options.renew_every = Some(ttl / 3);
            }
            Arc::new(tokio::task::spawn_blocking(move || PostgresStore::connect(&url, options)).await??)
        }
    })
}

/// Serves on `listener` until `shutdown` completes, then stops accepting,
/// ends every stream, finishes the requests in flight and returns.
pub async fn run(
    listener: impl Into<Listener>,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    run_on(vec![listener.into()], config, shutdown).await
}

/// Like [`run`], on several listeners at once (say TCP for remote players
/// and browsers, and a Unix socket for AI agents on the same host): one
/// server, the same games, whichever way a client comes in.
pub async fn run_on(
    listeners: Vec<Listener>,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    if listeners.is_empty() {
        return Err(ServerError::NoListener);
    }
    let store = open_store(&config.storage, config.limits.commit_poll, &config.node).await?;
    if let Some(cluster) = store.cluster() {
        let advertise = config.node.advertise.clone().or_else(|| listeners.iter().find_map(Listener::reachable_url));
        match advertise {
            Some(url) => {
                let (store, u) = (Arc::clone(&store), url.clone());
                tokio::task::spawn_blocking(move || store.cluster().map(|c| c.advertise(&u))).await?;
                info!(node = cluster.node(), advertise = %url, "joined the cluster");
            }
            None => warn!(
                node = cluster.node(),
                "no address to give the other nodes (listening on a wildcard?): set --advertise, or they cannot forward calls here"
            ),
        }
    }
    let manager = Arc::new(Manager::load(store, config.limits.clone(), config.registry.clone()).await?);
    let served = serve(listeners, Arc::clone(&manager), &config.web, shutdown).await;
    // A drain: the other nodes take this node's games over at once.
    manager.release_all().await;
    served
}

/// Serves an existing manager (see [`run`]).
async fn serve(
    listeners: Vec<Listener>,
    manager: Arc<Manager>,
    web: &WebConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    let cors = crate::web::cors(&web.cors_origins)?;
    if let Some(dir) = &web.dir {
        crate::web::check_dir(dir)?;
    }
    let limits = manager.limits().clone();
    manager.spawn_upkeep();
    manager.spawn_nodes();
    let peers = crate::peers::Peers::of(manager.store());
    let cluster_secret = manager.store().cluster().map(|c| c.secret().to_string());
    let game_service = WireCodes::new(
        GameServiceServer::new(Routed::new(Arc::clone(&manager), peers))
            .max_decoding_message_size(limits.max_message_bytes)
            .max_encoding_message_size(16 * 1024 * 1024),
        limits.max_message_bytes,
    );
    let (rate_limit_layer, forget_quiet_clients) = rate_limit(&limits, cluster_secret);
    {
        let mut stop = manager.shutdown_signal();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
            loop {
                tokio::select! {
                    _ = stop.wait_for(|&v| v) => return,
                    _ = tick.tick() => forget_quiet_clients(),
                }
            }
        });
    }

    {
        // The live-games gauge of the metrics, refreshed every few seconds.
        let manager = Arc::clone(&manager);
        let mut stop = manager.shutdown_signal();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(5));
            loop {
                tokio::select! {
                    _ = stop.wait_for(|&v| v) => return,
                    _ = tick.tick() => crate::metrics::global().set_live_games(manager.game_count()),
                }
            }
        });
    }

    let (health_reporter, health_service) = tonic_health::server::health_reporter();
    // Ready only while the store answers (checked every 2 s).
    crate::health::follow_store(manager.store(), health_reporter.clone(), manager.shutdown_signal()).await;

    let reflection_v1 = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(tabletop::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let reflection_v1alpha = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(tabletop::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1alpha()?;

    let addr: Vec<String> = listeners.iter().map(Listener::address).collect();
    let (accepted, socket_files) = crate::listen::accept_all(listeners).ok_or(ServerError::NoListener)?;
    // One cap over every listener: a flood on one cannot exceed it.
    let incoming = crate::connections::cap(accepted, limits.max_connections);
    let (began, shutdown_began) = tokio::sync::oneshot::channel::<()>();
    let signal = {
        let manager = Arc::clone(&manager);
        async move {
            shutdown.await;
            info!("shutting down: no new connections, streams closing, finishing requests in flight");
            health_reporter.set_not_serving::<GameServiceServer<Routed>>().await;
            manager.begin_shutdown();
            let _ = began.send(());
        }
    };
    // Once the shutdown begins, connections get `shutdown_grace` to close.
    let grace = limits.shutdown_grace;
    let grace_over = async move {
        if shutdown_began.await.is_err() {
            // The server stopped some other way: never cut it short.
            std::future::pending::<()>().await;
        }
        tokio::time::sleep(grace).await;
    };
    let mut routes = tonic::service::Routes::new(game_service)
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .into_axum_router()
        // gRPC-Web for the services only: the static files below are
        // plain HTTP, which the gRPC-Web layer would refuse.
        .route_layer(tonic_web::GrpcWebLayer::new());
    if let Some(dir) = web.dir.clone() {
        routes = routes.fallback(move |req| crate::web::serve_file(dir.clone(), req));
    }
    info!(addr = ?addr, games = manager.game_count(), web = ?web.dir, cors = ?web.cors_origins,
          agent_keys = limits.agents.as_ref().map_or(0, |a| a.keys.len()), "serving");
    let served = tonic::transport::Server::builder()
        .accept_http1(true)
        .timeout(limits.request_timeout)
        .concurrency_limit_per_connection(256)
        .layer(crate::access::AccessLayer)
        .layer(rate_limit_layer)
        .layer(tower::util::option_layer(cors))
        .add_routes(routes.into())
        .serve_with_incoming_shutdown(incoming, signal);
    tokio::select! {
        served = served => served?,
        () = grace_over => {
            // Every acknowledged choice is already durable: what is cut off
            // here is at most a choice not yet answered, as in a crash.
            warn!(grace_secs = grace.as_secs_f64(), "connections still open after the shutdown grace; stopping without them");
        }
    }
    for path in socket_files {
        if let Err(e) = std::fs::remove_file(&path) {
            warn!(path = %path.display(), error = %e, "could not remove the socket file");
        }
    }
    info!("stopped");
    Ok(())
}
