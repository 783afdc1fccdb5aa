//! English for what the engine shows people: option labels, prompts, event
//! summaries, and (through the API's catalog) the rules text of the
//! content. Display only: nothing in the rules reads it.

pub mod effects;
pub mod power;
pub mod words;
