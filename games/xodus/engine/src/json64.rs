//! Serde shape of 64-bit integers in JSON: written as decimal strings, so
//! that a JavaScript client (whose numbers are doubles) reads them exactly;
//! read from a string or a plain number, so JSON stored before keeps loading.

use serde::{Deserialize, Deserializer, Serializer};

/// Writes `v` as a decimal string.
pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// Reads a u64 from a decimal string or a JSON number.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Number(u64),
        Text(String),
    }
    match Either::deserialize(d)? {
        Either::Number(n) => Ok(n),
        Either::Text(t) => {
            t.parse().map_err(|_| serde::de::Error::custom(format!("'{t}' is not a 64-bit unsigned integer")))
        }
    }
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct W {
        #[serde(with = "super")]
        v: u64,
    }

    #[test]
    fn big_numbers_are_strings_and_old_numbers_still_read() {
        let w = W { v: u64::MAX };
        let json = serde_json::to_string(&w).expect("json");
        assert_eq!(json, format!("{{\"v\":\"{}\"}}", u64::MAX));
        assert_eq!(serde_json::from_str::<W>(&json).expect("string"), w);
        assert_eq!(serde_json::from_str::<W>("{\"v\":7}").expect("number"), W { v: 7 });
        assert!(serde_json::from_str::<W>("{\"v\":\"x\"}").is_err());
    }
}
