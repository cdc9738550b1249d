package dev.perflab.gateway.forwarded;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

import io.netty.handler.ipfilter.IpFilterRuleType;
import io.netty.handler.ipfilter.IpSubnetFilterRule;
import io.netty.util.NetUtil;
import org.jspecify.annotations.Nullable;

/**
 * The proxies in front of the gateway whose {@code X-Forwarded-For} entries are believed: addresses or CIDR blocks
 * ({@code 10.0.0.0/8}, {@code fd00::/8}, {@code 192.0.2.7}), matched with Netty's subnet rules. Entries must be IP
 * literals: a host name here would be resolved once at start and silently go stale.
 */
final class TrustedProxies {

	private final List<IpSubnetFilterRule> rules;

	TrustedProxies(List<String> entries) {
		this.rules = entries.stream().map(String::trim).filter(e -> !e.isEmpty()).map(TrustedProxies::rule).toList();
	}

	boolean isEmpty() {
		return rules.isEmpty();
	}

	boolean trusts(InetAddress address) {
		InetSocketAddress socket = new InetSocketAddress(address, 0);
		for (IpSubnetFilterRule rule : rules) {
			if (rule.matches(socket)) {
				return true;
			}
		}
		return false;
	}

	/** An IP literal, never a name looked up in DNS; null when it is not one. */
	static @Nullable InetAddress literal(String text) {
		return NetUtil.createInetAddressFromIpAddressString(text);
	}

	private static IpSubnetFilterRule rule(String entry) {
		int slash = entry.indexOf('/');
		InetAddress address = literal(slash < 0 ? entry : entry.substring(0, slash));
		if (address == null) {
			throw new IllegalStateException("perflab.gateway.trusted-proxies: '" + entry
					+ "' is not an IP address or CIDR block (e.g. 10.0.0.0/8)");
		}
		int bits = address.getAddress().length * 8;
		int prefix;
		try {
			prefix = slash < 0 ? bits : Integer.parseInt(entry.substring(slash + 1));
		}
		catch (NumberFormatException e) {
			prefix = -1;
		}
		if (prefix < 0 || prefix > bits) {
			throw new IllegalStateException(
					"perflab.gateway.trusted-proxies: '" + entry + "' has no valid prefix length (0-" + bits + ")");
		}
		return new IpSubnetFilterRule(address, prefix, IpFilterRuleType.ACCEPT);
	}
}
