//! # tabletop: the service's gRPC API, shared by the server and its clients
//!
//! The types and the client/server stubs generated from `proto/`: the
//! game-neutral platform package `tabletop.v1` ([`pb`]: lobby, seats,
//! decisions, history, streams, outcomes, the state envelope) and each
//! game's own package (X-ODUS: `xodus.v1`, [`xodus_pb`]; VII Legio:
//! `legio.v1`, [`legio_pb`]: its setup, typed state, events and choices,
//! which travel packed in `google.protobuf.Any`). The `.proto` files are
//! the manual; this crate only makes them usable from Rust. It knows no rule and depends on no
//! engine: the wire types belong to the API.
//!
//! The generated code is compiled by `build.rs` with the pure-Rust `protox`
//! compiler, so no `protoc` is needed anywhere.
#![deny(missing_docs)]

/// The platform package `tabletop.v1`: messages, enums,
/// `game_service_client` and `game_service_server`.
#[allow(missing_docs)]
pub mod pb {
    tonic::include_proto!("tabletop.v1");
}

/// X-ODUS's package `xodus.v1`: its setup, typed state, events and
/// choices.
#[allow(missing_docs)]
pub mod xodus_pb {
    tonic::include_proto!("xodus.v1");
}

/// VII Legio's package `legio.v1`: its setup and configuration, typed
/// state (with the viewer's own secrets only), events and choices.
#[allow(missing_docs)]
pub mod legio_pb {
    tonic::include_proto!("legio.v1");
}

pub mod any;
pub mod dial;
pub mod env;
pub mod typed;

pub use pb::game_service_client::GameServiceClient;
pub use pb::game_service_server::{GameService, GameServiceServer};

/// The encoded `FileDescriptorSet` of the API (every package), for gRPC
/// server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/api_descriptor.bin"));

/// The fully qualified gRPC service name, as the health protocol reports it.
pub const SERVICE_NAME: &str = "tabletop.v1.GameService";
