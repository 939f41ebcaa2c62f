//! The two pieces of cryptography web push needs, on `ring` (already in
//! the build under rustls): the message encryption of RFC 8291
//! (`aes128gcm`, RFC 8188) and the VAPID signature of RFC 8292 (a JWT
//! signed ES256). The `web-push` crate does the same over `jwt-simple`
//! and OpenSSL, a second crypto stack, plus an HTTP client of its own;
//! these ~150 lines follow the RFCs' steps and are tested against
//! Mozilla's `ece` crate (tests/it/push.rs).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ring::rand::{SecureRandom, SystemRandom};
use ring::signature::{EcdsaKeyPair, KeyPair, ECDSA_P256_SHA256_FIXED_SIGNING};
use ring::{aead, agreement, hkdf};

/// The record size written in the header: one record holds the message.
const RECORD_SIZE: u32 = 4096;

/// The most plaintext one record carries: the record less the padding
/// delimiter and the AEAD tag (RFC 8188, 2).
pub const MAX_PLAINTEXT: usize = RECORD_SIZE as usize - 17;

/// Why a message could not be encrypted or signed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CryptoError {
    #[error("the browser's key is not a P-256 public key")]
    BadKey,
    #[error("the browser's auth secret is not 16 bytes")]
    BadAuth,
    #[error("the message is too long for one record")]
    TooLong,
    #[error("the VAPID key cannot be read")]
    BadVapidKey,
    #[error("the cryptography library failed")]
    Library,
}

/// base64url, with or without padding (browsers send it without).
pub fn unbase64(s: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(s.trim().trim_end_matches('=')).ok()
}

pub fn base64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// An HKDF output length.
struct Len(usize);

impl hkdf::KeyType for Len {
    fn len(&self) -> usize {
        self.0
    }
}

fn hkdf(salt: &[u8], ikm: &[u8], info: &[u8], len: usize) -> Result<Vec<u8>, CryptoError> {
    let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, salt).extract(ikm);
    let mut out = vec![0u8; len];
    prk.expand(&[info], Len(len))
        .and_then(|okm| okm.fill(&mut out))
        .map_err(|_| CryptoError::Library)?;
    Ok(out)
}

/// Encrypt `plaintext` for the browser with key `p256dh` and secret `auth`
/// (RFC 8291, 3.4): the body of the push message, `Content-Encoding:
/// aes128gcm`. A fresh key pair and salt per message.
pub fn encrypt(plaintext: &[u8], p256dh: &str, auth: &str) -> Result<Vec<u8>, CryptoError> {
    let ua_public = unbase64(p256dh).ok_or(CryptoError::BadKey)?;
    let auth = unbase64(auth).ok_or(CryptoError::BadAuth)?;
    if auth.len() != 16 {
        return Err(CryptoError::BadAuth);
    }
    if plaintext.len() > MAX_PLAINTEXT {
        return Err(CryptoError::TooLong);
    }
    let rng = SystemRandom::new();
    let as_private = agreement::EphemeralPrivateKey::generate(&agreement::ECDH_P256, &rng)
        .map_err(|_| CryptoError::Library)?;
    let as_public = as_private
        .compute_public_key()
        .map_err(|_| CryptoError::Library)?
        .as_ref()
        .to_vec();
    let peer = agreement::UnparsedPublicKey::new(&agreement::ECDH_P256, &ua_public);
    if ua_public.len() != 65 {
        return Err(CryptoError::BadKey);
    }
    let ecdh_secret = agreement::agree_ephemeral(as_private, &peer, |s| s.to_vec())
        .map_err(|_| CryptoError::BadKey)?;
    // IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" || 0 || ua || as)
    let mut key_info = b"WebPush: info\0".to_vec();
    key_info.extend_from_slice(&ua_public);
    key_info.extend_from_slice(&as_public);
    let ikm = hkdf(&auth, &ecdh_secret, &key_info, 32)?;
    let mut salt = [0u8; 16];
    rng.fill(&mut salt).map_err(|_| CryptoError::Library)?;
    let cek = hkdf(&salt, &ikm, b"Content-Encoding: aes128gcm\0", 16)?;
    let nonce = hkdf(&salt, &ikm, b"Content-Encoding: nonce\0", 12)?;
    // One record, the last: the delimiter 2 and no padding.
    let mut record = plaintext.to_vec();
    record.push(2);
    let key = aead::UnboundKey::new(&aead::AES_128_GCM, &cek).map_err(|_| CryptoError::Library)?;
    let nonce = aead::Nonce::try_assume_unique_for_key(&nonce).map_err(|_| CryptoError::Library)?;
    aead::LessSafeKey::new(key)
        .seal_in_place_append_tag(nonce, aead::Aad::empty(), &mut record)
        .map_err(|_| CryptoError::Library)?;
    // Header: salt, record size, key id length, key id (the sender's key).
    let mut body = Vec::with_capacity(16 + 4 + 1 + 65 + record.len());
    body.extend_from_slice(&salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(as_public.len() as u8);
    body.extend_from_slice(&as_public);
    body.extend_from_slice(&record);
    Ok(body)
}

/// The server's VAPID key pair (RFC 8292), kept as PKCS#8.
pub struct VapidKey {
    pair: EcdsaKeyPair,
    rng: SystemRandom,
}

impl VapidKey {
    /// A new key, as PKCS#8 in base64url (how the settings table keeps it).
    pub fn generate() -> Result<String, CryptoError> {
        let rng = SystemRandom::new();
        let doc = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
            .map_err(|_| CryptoError::Library)?;
        Ok(base64(doc.as_ref()))
    }

    pub fn from_stored(pkcs8: &str) -> Result<VapidKey, CryptoError> {
        let rng = SystemRandom::new();
        let bytes = unbase64(pkcs8).ok_or(CryptoError::BadVapidKey)?;
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &bytes, &rng)
            .map_err(|_| CryptoError::BadVapidKey)?;
        Ok(VapidKey { pair, rng })
    }

    /// The public key, uncompressed, base64url: the page's
    /// `applicationServerKey` and the `k` of the Authorization header.
    pub fn public_key(&self) -> String {
        base64(self.pair.public_key().as_ref())
    }

    /// The `Authorization` header for a message to `endpoint`: `vapid t=JWT,
    /// k=KEY`, the JWT's audience the endpoint's origin, valid 12 hours from
    /// `now_secs` (RFC 8292 allows at most 24), `sub` the site's contact.
    pub fn authorization(
        &self,
        endpoint: &url::Url,
        contact: &str,
        now_secs: i64,
    ) -> Result<String, CryptoError> {
        let header = base64(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = serde_json::json!({
            "aud": endpoint.origin().ascii_serialization(),
            "exp": now_secs + 12 * 3600,
            "sub": contact,
        });
        let signed = format!("{header}.{}", base64(claims.to_string().as_bytes()));
        let sig = self
            .pair
            .sign(&self.rng, signed.as_bytes())
            .map_err(|_| CryptoError::Library)?;
        Ok(format!(
            "vapid t={signed}.{}, k={}",
            base64(sig.as_ref()),
            self.public_key()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_keys_are_refused_and_messages_have_the_rfc_8188_header() {
        // A browser's key: any P-256 point.
        let rng = SystemRandom::new();
        let ua = agreement::EphemeralPrivateKey::generate(&agreement::ECDH_P256, &rng).unwrap();
        let p256dh = base64(ua.compute_public_key().unwrap().as_ref());
        let auth = base64(&[7u8; 16]);
        assert_eq!(
            encrypt(b"x", "AAAA", &auth),
            Err(CryptoError::BadKey),
            "not a point"
        );
        assert_eq!(encrypt(b"x", &p256dh, "AAAA"), Err(CryptoError::BadAuth));
        let body = encrypt(b"{\"hi\":1}", &p256dh, &auth).unwrap();
        assert_eq!(&body[16..20], &4096u32.to_be_bytes());
        assert_eq!(body[20], 65);
        // Header, then the text, its delimiter and the 16-byte tag.
        assert_eq!(body.len(), 21 + 65 + 8 + 1 + 16);
        let long = vec![b'x'; MAX_PLAINTEXT + 1];
        assert_eq!(encrypt(&long, &p256dh, &auth), Err(CryptoError::TooLong));
    }

    #[test]
    fn vapid_header_names_the_key_and_the_endpoints_origin() {
        let key = VapidKey::from_stored(&VapidKey::generate().unwrap()).unwrap();
        let endpoint = url::Url::parse("https://push.example.net:8443/send/abc").unwrap();
        let h = key
            .authorization(&endpoint, "mailto:admin@example.org", 1_000)
            .unwrap();
        let (t, k) = h
            .strip_prefix("vapid t=")
            .unwrap()
            .split_once(", k=")
            .unwrap();
        assert_eq!(k, key.public_key());
        let claims = unbase64(t.split('.').nth(1).unwrap()).unwrap();
        let claims: serde_json::Value = serde_json::from_slice(&claims).unwrap();
        assert_eq!(claims["aud"], "https://push.example.net:8443");
        assert_eq!(claims["exp"], 1_000 + 12 * 3600);
    }
}
