//! Packing game messages into `google.protobuf.Any` and reading them back:
//! the typed state of a game state, the typed detail of an event or an
//! option, the typed setup of a CreateGame request.

use crate::pb;
use prost::Name;
use prost_types::Any;

/// `msg` packed with its type URL.
pub fn pack<M: Name>(msg: &M) -> Any {
    Any { type_url: M::type_url(), value: prost::Message::encode_to_vec(msg) }
}

/// The message of type `M` in `any`, or `None` when it holds another type
/// or does not decode.
pub fn unpack<M: Name + Default>(any: &Any) -> Option<M> {
    any.to_msg::<M>().ok()
}

/// The typed state `M` a game state carries, if it carries one of that
/// type (each game defines its own in its package).
pub fn state_detail<M: Name + Default>(state: &pb::GameState) -> Option<M> {
    match &state.detail {
        Some(pb::game_state::Detail::GameState(any)) => unpack(any),
        _ => None,
    }
}

/// The typed choice `M` of an option, if it has one of that type.
pub fn option_detail<M: Name + Default>(option: &pb::ChoiceOption) -> Option<M> {
    option.detail.as_ref().and_then(unpack)
}

/// The typed event `M`, if the event has one of that type.
pub fn event_detail<M: Name + Default>(event: &pb::Event) -> Option<M> {
    event.detail.as_ref().and_then(unpack)
}

/// A CreateGame setup from a game's typed setup message.
pub fn game_setup<M: Name>(setup: M) -> pb::create_game_request::Setup {
    pb::create_game_request::Setup::GameSetup(pack(&setup))
}
