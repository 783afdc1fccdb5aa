//! The games this server ships with, each adapted to the hosting contract
//! of `tabletop_service::game`. Only these modules name a game engine's types.

pub mod legio;
pub mod xodus;
