//! Compiles `proto/xodus/v1/*.proto` into Rust with the pure-Rust `protox`
//! compiler (no `protoc` needed on any machine), then hands the descriptor
//! set to `tonic-prost-build`. The encoded descriptor set is also written to
//! `OUT_DIR/xodus_descriptor.bin` for gRPC server reflection.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files = ["xodus/v1/game.proto", "xodus/v1/service.proto"];
    println!("cargo:rerun-if-changed=proto");
    for f in files {
        println!("cargo:rerun-if-changed=proto/{f}");
    }
    let mut compiler = protox::Compiler::new(["proto"])?;
    compiler.include_imports(true).include_source_info(true);
    compiler.open_files(files)?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out_dir.join("xodus_descriptor.bin"), compiler.encode_file_descriptor_set())?;
    tonic_prost_build::configure()
        .type_attribute(".", "#[allow(clippy::all)]")
        .build_client(true)
        .build_server(true)
        .compile_fds(compiler.file_descriptor_set())?;
    Ok(())
}
