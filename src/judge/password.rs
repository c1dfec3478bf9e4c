//! Passwords, stored as argon2 hashes. A verification that succeeded is remembered in
//! memory (as a digest of hash and password), so a player who mails often costs one argon2
//! run per daemon start, not one per mail.

use std::collections::HashSet;
use std::sync::Mutex;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use rand_core::OsRng;
use sha2::{Digest, Sha256};

/// Hashes and checks passwords.
#[derive(Debug, Default)]
pub struct Passwords {
    verified: Mutex<HashSet<[u8; 32]>>,
}

fn argon() -> Argon2<'static> {
    // Argon2id with 4 MiB and 2 passes: a few milliseconds here, still costly to guess.
    let params = Params::new(4096, 2, 1, None).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

impl Passwords {
    /// The stored form of a password.
    pub fn hash(&self, password: &str) -> String {
        let salt = SaltString::generate(&mut OsRng);
        argon()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .expect("argon2 hashing with valid parameters")
    }

    /// Whether `password` matches the stored hash.
    pub fn verify(&self, stored: &str, password: &str) -> bool {
        let key: [u8; 32] = Sha256::digest(format!("{stored}\u{0}{password}").as_bytes()).into();
        if self
            .verified
            .lock()
            .map(|set| set.contains(&key))
            .unwrap_or(false)
        {
            return true;
        }
        let ok = PasswordHash::new(stored)
            .is_ok_and(|h| argon().verify_password(password.as_bytes(), &h).is_ok());
        if ok {
            if let Ok(mut set) = self.verified.lock() {
                set.insert(key);
            }
        }
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::Passwords;

    #[test]
    fn a_hash_verifies_its_password_only() {
        let p = Passwords::default();
        let h = p.hash("secret");
        assert!(h.starts_with("$argon2id$"));
        assert!(p.verify(&h, "secret"));
        assert!(p.verify(&h, "secret"), "cached");
        assert!(!p.verify(&h, "Secret"));
        assert!(!p.verify("not a hash", "secret"));
    }
}
