//! One request message per call where the method takes one. tonic reads
//! the first gRPC frame of a unary (or server-streaming) call's body and
//! drops the rest, and answers a body without a whole frame INTERNAL
//! "Missing request message"; the API promises INVALID_ARGUMENT for both,
//! INTERNAL being the server's own faults. So the body of such a call is
//! read here first (it is small: at most one message under the size cap),
//! its frames counted, and only a body holding exactly one whole frame
//! goes on to the handler.

use tonic::Status;
use tonic::codegen::Bytes;

/// A gRPC frame's header: the compressed flag and a big-endian length.
const HEADER: usize = 5;

/// What a (possibly partial) body holds so far.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Frames {
    /// Nothing yet.
    Empty,
    /// Part of the first frame (a header not yet whole, or fewer bytes
    /// than it declares).
    Partial {
        /// Bytes of the message body present.
        have: usize,
        /// Bytes the header declares (0 while the header is not whole).
        want: usize,
    },
    /// Exactly one whole frame.
    One,
    /// Bytes past the end of the first frame: a second message began.
    More,
    /// The first frame declares a message over the cap.
    TooLarge(usize),
}

/// Reads `buf`, the body so far, against the message cap `max`.
pub(crate) fn frames(buf: &[u8], max: usize) -> Frames {
    if buf.is_empty() {
        return Frames::Empty;
    }
    if buf.len() < HEADER {
        return Frames::Partial { have: 0, want: 0 };
    }
    let want = u32::from_be_bytes([buf[1], buf[2], buf[3], buf[4]]) as usize;
    if want > max {
        return Frames::TooLarge(want);
    }
    let have = buf.len() - HEADER;
    match have.cmp(&want) {
        std::cmp::Ordering::Less => Frames::Partial { have, want },
        std::cmp::Ordering::Equal => Frames::One,
        std::cmp::Ordering::Greater => Frames::More,
    }
}

/// The whole body of a call that takes one message, or the status that
/// refuses it: INVALID_ARGUMENT for no message, a cut message or a
/// second one, RESOURCE_EXHAUSTED for a message over `max` bytes (the
/// words tonic's own refusal gets in `codes.rs`). Reading stops at the
/// first byte that settles it.
pub(crate) async fn one_message(body: tonic::body::Body, max: usize) -> Result<Bytes, Status> {
    use tokio_stream::StreamExt;
    let mut data = axum::body::Body::new(body).into_data_stream();
    let mut buf: Vec<u8> = Vec::new();
    while let Some(chunk) = data.next().await {
        let chunk = chunk.map_err(|e| Status::cancelled(format!("the request body could not be read: {e}")))?;
        buf.extend_from_slice(&chunk);
        match frames(&buf, max) {
            Frames::More => return Err(more_than_one()),
            Frames::TooLarge(n) => return Err(too_large(n, max)),
            _ => {}
        }
    }
    match frames(&buf, max) {
        Frames::One => Ok(Bytes::from(buf)),
        Frames::Empty => {
            Err(Status::invalid_argument("this method takes exactly one request message; the request body held none"))
        }
        Frames::Partial { have, want } => Err(Status::invalid_argument(format!(
            "the request body ends inside its message: {have} of {want} bytes (or a cut 5-byte header)"
        ))),
        Frames::More => Err(more_than_one()),
        Frames::TooLarge(n) => Err(too_large(n, max)),
    }
}

fn more_than_one() -> Status {
    Status::invalid_argument("this method takes exactly one request message; the request body held more")
}

fn too_large(found: usize, max: usize) -> Status {
    Status::resource_exhausted(format!(
        "the request message is too large: found {found} bytes, the limit is: {max} bytes"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(len: u32) -> Vec<u8> {
        let mut f = vec![0];
        f.extend_from_slice(&len.to_be_bytes());
        f.extend(std::iter::repeat_n(7u8, len as usize));
        f
    }

    #[test]
    fn counts_whole_frames_and_spots_cut_extra_and_oversized_ones() {
        assert_eq!(frames(&[], 100), Frames::Empty);
        assert_eq!(frames(&[0, 0, 0], 100), Frames::Partial { have: 0, want: 0 });
        assert_eq!(frames(&frame(0), 100), Frames::One, "an empty message is one message");
        assert_eq!(frames(&frame(3), 100), Frames::One);
        let cut = &frame(3)[..6];
        assert_eq!(frames(cut, 100), Frames::Partial { have: 1, want: 3 });
        let mut two = frame(3);
        two.extend(frame(0));
        assert_eq!(frames(&two, 100), Frames::More);
        assert_eq!(frames(&[&frame(3)[..], &[0]].concat(), 100), Frames::More, "a second frame's first byte");
        assert_eq!(frames(&frame(101)[..5], 100), Frames::TooLarge(101), "refused on the header alone");
    }

    #[tokio::test]
    async fn a_body_is_passed_on_only_with_exactly_one_message() {
        let body = |b: Vec<u8>| tonic::body::Body::new(axum::body::Body::from(b));
        assert_eq!(one_message(body(frame(2)), 100).await.map(|b| b.len()).ok(), Some(7));
        for bad in [Vec::new(), frame(2)[..4].to_vec(), [frame(1), frame(1)].concat()] {
            let got = one_message(body(bad), 100).await.map(|_| ()).map_err(|s| s.code());
            assert_eq!(got, Err(tonic::Code::InvalidArgument));
        }
        let got = one_message(body(frame(200)), 100).await.map(|_| ()).map_err(|s| s.code());
        assert_eq!(got, Err(tonic::Code::ResourceExhausted));
    }
}
