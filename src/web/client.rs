//! Who a request comes from, as the limits on guessing count it: the TCP peer, or — when
//! the peer is the `[web] trusted_proxy` — the right-most address of `X-Forwarded-For` that
//! is not a trusted proxy's (the one the proxy itself saw). The header of anyone else is
//! ignored: a client names itself only through the proxy.

use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;

use super::Web;
use crate::judge::password::sender_key;

/// `X-Forwarded-For` entries read at most, from the right: only the right end of the chain
/// is written by trusted proxies, the rest is the client's to choose.
const HOPS: usize = 16;

/// The client of a request that came over the TCP connection from `peer`.
pub(super) fn client(web: &Web, peer: SocketAddr, headers: &HeaderMap) -> IpAddr {
    let trusted = web
        .service
        .config
        .web
        .as_ref()
        .map(crate::config::WebSection::trusted_proxies)
        .unwrap_or_default();
    forwarded(peer.ip(), &trusted, headers)
}

/// [`client`] on the trusted proxies `trusted`.
fn forwarded(peer: IpAddr, trusted: &[IpAddr], headers: &HeaderMap) -> IpAddr {
    let peer = peer.to_canonical();
    if !trusted.contains(&peer) {
        return peer;
    }
    // Every X-Forwarded-For line, in order; the proxy appends to the last.
    let chain: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    for entry in chain.iter().rev().take(HOPS) {
        let Some(ip) = address(entry) else {
            // What a trusted hop wrote is an address; anything else ends the chain there.
            return peer;
        };
        if !trusted.contains(&ip) {
            return ip;
        }
    }
    peer
}

/// One `X-Forwarded-For` entry as an address: `192.0.2.7`, `2001:db8::1`, with a port
/// (`192.0.2.7:5678`, `[2001:db8::1]:5678`) or in brackets.
fn address(entry: &str) -> Option<IpAddr> {
    entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|s| s.ip()))
        .or_else(|| {
            entry
                .strip_prefix('[')?
                .strip_suffix(']')?
                .parse::<IpAddr>()
                .ok()
        })
        .map(|ip| ip.to_canonical())
}

/// The key a web client's password checks are counted and recorded under (`web [192.0.2.7]`),
/// as a mail's are under its sender's.
pub(super) fn key(client: IpAddr) -> String {
    sender_key("web", Some(&client.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(lines: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for l in lines {
            h.append("x-forwarded-for", l.parse().unwrap());
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn the_header_counts_from_the_proxy_alone() {
        let proxy = [ip("127.0.0.1")];
        let h = headers(&["203.0.113.9, 198.51.100.4"]);
        // From the proxy: the right-most address the proxy wrote.
        assert_eq!(forwarded(ip("127.0.0.1"), &proxy, &h), ip("198.51.100.4"));
        // From anyone else, or with no proxy set: the peer.
        assert_eq!(forwarded(ip("192.0.2.1"), &proxy, &h), ip("192.0.2.1"));
        assert_eq!(forwarded(ip("127.0.0.1"), &[], &h), ip("127.0.0.1"));
    }

    #[test]
    fn proxies_in_the_chain_are_passed_over_and_garbage_ends_it() {
        let proxies = [ip("127.0.0.1"), ip("10.0.0.2")];
        let h = headers(&["198.51.100.4", "10.0.0.2"]);
        assert_eq!(forwarded(ip("127.0.0.1"), &proxies, &h), ip("198.51.100.4"));
        let h = headers(&["198.51.100.4, nonsense"]);
        assert_eq!(forwarded(ip("127.0.0.1"), &proxies, &h), ip("127.0.0.1"));
        let h = headers(&["[2001:db8::1]:443"]);
        assert_eq!(forwarded(ip("127.0.0.1"), &proxies, &h), ip("2001:db8::1"));
        assert_eq!(
            forwarded(ip("127.0.0.1"), &proxies, &headers(&[])),
            ip("127.0.0.1")
        );
        // An IPv4 peer seen as IPv6 is the same proxy.
        assert_eq!(
            forwarded(
                ip("::ffff:127.0.0.1"),
                &proxies,
                &headers(&["198.51.100.4"])
            ),
            ip("198.51.100.4")
        );
    }
}
