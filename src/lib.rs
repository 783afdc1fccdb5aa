//! # xodus: the X-ODUS gRPC API, shared by the server and its clients
//!
//! The types and the client/server stubs generated from
//! `proto/xodus/v1/*.proto` (package `xodus.v1`), plus the small
//! conversions between the engine's types and the wire types that every
//! side needs ([`convert`]). The `.proto` files are the manual; this crate
//! only makes them usable from Rust.
//!
//! The generated code is compiled by `build.rs` with the pure-Rust `protox`
//! compiler, so no `protoc` is needed anywhere.
#![deny(missing_docs)]

/// Generated messages, enums, `game_service_client` and `game_service_server`.
#[allow(missing_docs)]
pub mod pb {
    tonic::include_proto!("xodus.v1");
}

pub mod convert;

pub use pb::game_service_client::GameServiceClient;
pub use pb::game_service_server::{GameService, GameServiceServer};

/// The encoded `FileDescriptorSet` of the API, for gRPC server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/xodus_descriptor.bin"));

/// The fully qualified gRPC service name, as the health protocol reports it.
pub const SERVICE_NAME: &str = "xodus.v1.GameService";
