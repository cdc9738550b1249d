package dev.perflab.gateway.forwarded;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import io.netty.handler.codec.http.HttpRequest;
import org.jspecify.annotations.Nullable;
import reactor.netty.http.server.ConnectionInfo;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.reactor.netty.NettyServerCustomizer;

/**
 * Decides, in Reactor Netty's forwarded-header hook, which address a request comes from: the connection's peer,
 * unless that peer is a trusted proxy; then the {@code X-Forwarded-For} hops are read from the right (each proxy
 * appends the address it saw) and the first one that is not a trusted proxy is the client. Everything to its left
 * was written by the client and is never believed: it could otherwise pick a fresh per-address rate-limit key for
 * every request. {@code X-Forwarded-Host}, {@code -Proto}, {@code -Port}, {@code -Prefix} and {@code Forwarded} are
 * never read: the gateway builds no absolute URLs, and a client-chosen prefix made edge authentication and route
 * matching read two different paths.
 * <p>
 * This replaces Spring Boot's forwarded-header handling, which it turns on by itself on Kubernetes (it detects
 * {@code KUBERNETES_SERVICE_HOST}/{@code _PORT}) and which believes every client: Reactor Netty's default handler
 * takes the left-most {@code X-Forwarded-For} entry and the prefix. application.yaml sets
 * {@code server.forward-headers-strategy: none}, and this customizer runs after Spring Boot's setting in any case.
 */
final class ForwardedClientAddress implements NettyServerCustomizer {

	static final String X_FORWARDED_FOR = "X-Forwarded-For";

	private final TrustedProxies trusted;

	ForwardedClientAddress(TrustedProxies trusted) {
		this.trusted = trusted;
	}

	@Override
	public HttpServer apply(HttpServer server) {
		return trusted.isEmpty() ? server.forwarded(false) : server.forwarded(this::resolve);
	}

	ConnectionInfo resolve(ConnectionInfo info, HttpRequest request) {
		InetSocketAddress peer = info.getRemoteAddress();
		if (peer == null || peer.getAddress() == null || !trusted.trusts(peer.getAddress())) {
			return info;
		}
		InetAddress client = client(peer.getAddress(), hops(request.headers().getAll(X_FORWARDED_FOR)));
		return client.equals(peer.getAddress()) ? info : info.withRemoteAddress(new InetSocketAddress(client, peer.getPort()));
	}

	/**
	 * The nearest hop, from the right, that is not a trusted proxy; an entry that is no IP address ends the walk at
	 * the last trusted hop (a trusted proxy writes addresses, so it came from further left).
	 */
	private InetAddress client(InetAddress peer, List<String> hops) {
		InetAddress client = peer;
		for (int i = hops.size() - 1; i >= 0 && trusted.trusts(client); i--) {
			InetAddress hop = address(hops.get(i));
			if (hop == null) {
				break;
			}
			client = hop;
		}
		return client;
	}

	private static List<String> hops(List<String> headers) {
		List<String> hops = new ArrayList<>();
		for (String header : headers) {
			for (String hop : header.split(",")) {
				hops.add(hop.trim());
			}
		}
		return hops;
	}

	/** {@code 192.0.2.1}, {@code 192.0.2.1:4711}, {@code 2001:db8::1} or {@code [2001:db8::1]:4711}. */
	static @Nullable InetAddress address(String hop) {
		String host = hop;
		if (host.startsWith("[")) {
			int end = host.indexOf(']');
			host = end < 0 ? "" : host.substring(1, end);
		}
		else if (host.indexOf(':') >= 0 && host.indexOf(':') == host.lastIndexOf(':')) {
			host = host.substring(0, host.indexOf(':'));
		}
		return host.isEmpty() ? null : TrustedProxies.literal(host);
	}
}
