//! Packing game messages into `google.protobuf.Any` and reading them back:
//! the typed state of a game state, the typed detail of an event or an
//! option, the typed setup of a CreateGame request.

use crate::{pb, xodus_pb};
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

/// The X-ODUS typed state in a game state, if that is what it carries.
pub fn xodus_state(state: &pb::GameState) -> Option<xodus_pb::XodusState> {
    match &state.detail {
        Some(pb::game_state::Detail::GameState(any)) => unpack(any),
        _ => None,
    }
}

/// The X-ODUS typed choice of an option, if it has one.
pub fn xodus_choice(option: &pb::ChoiceOption) -> Option<xodus_pb::XodusChoice> {
    option.detail.as_ref().and_then(unpack)
}

/// The X-ODUS typed event, if the event has one.
pub fn xodus_event(event: &pb::Event) -> Option<xodus_pb::XodusEvent> {
    event.detail.as_ref().and_then(unpack)
}

/// A CreateGame setup for X-ODUS.
pub fn xodus_setup(setup: xodus_pb::XodusSetup) -> pb::create_game_request::Setup {
    pb::create_game_request::Setup::GameSetup(pack(&setup))
}
