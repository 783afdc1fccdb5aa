//! What every game's terminal screen is drawn with: the keyboard menu of a
//! decision's options (`menu`), the scrolling event log (`log`), the
//! clocks line (`clock`), bordered panels and the rules card (`frame`)
//! the shared colours (`style`) and the talk panel (`talk`). Each game's own screen lives in its
//! folder (`games/<game>/ui/`).

pub mod clock;
pub mod frame;
pub mod log;
pub mod menu;
pub mod style;
pub mod talk;
