//! The client's address, for the limits. Behind `MISSIVE_TRUST_PROXY=N`
//! proxies, each appends the address it was reached from to
//! `X-Forwarded-For`, so the last N entries are theirs and the N-th from the
//! right is the client as the outermost proxy saw it. Entries to the left of
//! it were written by the client and are never read: anyone can send them.

use actix_web::HttpRequest;

/// The client's address: the peer's with no proxy, else as above. A header
/// with fewer entries than proxies (a request that came round some of them)
/// gives its leftmost entry, which one of the proxies wrote; with no header,
/// `Forwarded`'s `for=` entries count the same way, then the peer.
pub fn client_addr(req: &HttpRequest, hops: u32) -> String {
    let peer = || {
        req.peer_addr()
            .map(|a| a.ip().to_string())
            .unwrap_or_else(|| "unknown".into())
    };
    if hops == 0 {
        return peer();
    }
    let mut entries = header_list(req, "x-forwarded-for", |e| Some(e.to_string()));
    if entries.is_empty() {
        entries = header_list(req, "forwarded", forwarded_for);
    }
    if entries.is_empty() {
        return peer();
    }
    let i = entries.len().saturating_sub(hops as usize);
    normalise(&entries[i])
}

/// Every comma-separated entry of every `name` header, in order.
fn header_list(
    req: &HttpRequest,
    name: &str,
    read: impl Fn(&str) -> Option<String>,
) -> Vec<String> {
    req.headers()
        .get_all(name)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .filter_map(read)
        .collect()
}

/// The `for=` of one `Forwarded` element (`for=192.0.2.1;proto=https`).
fn forwarded_for(element: &str) -> Option<String> {
    element.split(';').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("for")
            .then(|| v.trim().trim_matches('"').to_string())
    })
}

/// An address without its port or brackets, so that one client is one key
/// however its proxy writes it.
fn normalise(entry: &str) -> String {
    use std::net::{IpAddr, SocketAddr};
    if let Ok(ip) = entry.parse::<IpAddr>() {
        return ip.to_string();
    }
    if let Ok(sa) = entry.parse::<SocketAddr>() {
        return sa.ip().to_string();
    }
    let bare = entry.trim_start_matches('[').trim_end_matches(']');
    match bare.parse::<IpAddr>() {
        Ok(ip) => ip.to_string(),
        Err(_) => crate::util::clip(entry, 64),
    }
}

#[cfg(test)]
mod tests {
    use super::client_addr;
    use actix_web::test::TestRequest;

    fn addr(hops: u32, headers: &[(&str, &str)]) -> String {
        let mut req = TestRequest::default().peer_addr("10.0.0.9:4000".parse().unwrap());
        for (k, v) in headers {
            req = req.append_header((*k, *v));
        }
        client_addr(&req.to_http_request(), hops)
    }

    #[test]
    fn the_client_is_counted_from_the_right() {
        let xff = [("X-Forwarded-For", "6.6.6.6, 203.0.113.7")];
        assert_eq!(addr(0, &xff), "10.0.0.9", "no proxy: the peer");
        assert_eq!(
            addr(1, &xff),
            "203.0.113.7",
            "the spoofed left entry is ignored"
        );
        let two = [("X-Forwarded-For", "6.6.6.6, 203.0.113.7, 10.0.0.2")];
        assert_eq!(addr(2, &two), "203.0.113.7");
        // Two headers are one list.
        let split = [
            ("X-Forwarded-For", "6.6.6.6"),
            ("X-Forwarded-For", "203.0.113.7:5555"),
        ];
        assert_eq!(addr(1, &split), "203.0.113.7");
        assert_eq!(addr(3, &xff), "6.6.6.6", "fewer entries than proxies");
        assert_eq!(addr(1, &[]), "10.0.0.9", "no header: the peer");
        let fwd = [(
            "Forwarded",
            "for=6.6.6.6, for=\"[2001:db8::1]:80\";proto=https",
        )];
        assert_eq!(addr(1, &fwd), "2001:db8::1");
    }
}
