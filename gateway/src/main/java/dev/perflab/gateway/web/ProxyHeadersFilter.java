package dev.perflab.gateway.web;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveHopByHopHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * The headers a proxy must not pass on, removed in one pass over the header map instead of Spring Cloud Gateway's
 * three: hop-by-hop headers and those the {@code Connection} header names, both ways (one instance each); on a
 * request also the
 * client's {@code Forwarded} and {@code X-Forwarded-*}, which only a trusted proxy may set. When nothing is to be
 * removed the headers are passed on as they came, without a copy. Each of the three filters it replaces copied the
 * whole map on every request (docs/gateway-performance.md).
 *
 * <p>
 * {@link Replacement} takes Spring Cloud Gateway's {@code removeHopByHopHeadersFilter},
 * {@code removeForwardedHeadersFilter} and {@code removeXForwardedHeadersFilter} out and puts this filter in their
 * place, removing the forwarded headers only where it took their filters (with
 * {@code spring.cloud.gateway.server.webflux.trusted-proxies} set, Spring's own filters append to them instead).
 */
public final class ProxyHeadersFilter implements HttpHeadersFilter, Ordered {

	static final String FORWARDED = "forwarded";

	static final String X_FORWARDED = "x-forwarded-";

	private final Type type;

	private final boolean removeForwarded;

	private final boolean removeXForwarded;

	ProxyHeadersFilter(Type type, boolean removeForwarded, boolean removeXForwarded) {
		this.type = type;
		this.removeForwarded = type == Type.REQUEST && removeForwarded;
		this.removeXForwarded = type == Type.REQUEST && removeXForwarded;
	}

	@Override
	public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
		Set<String> named = connectionOptions(input);
		HttpHeaders filtered = null;
		for (Map.Entry<String, List<String>> entry : input.headerSet()) {
			String name = entry.getKey().toLowerCase(Locale.ROOT);
			if (removed(name, named)) {
				if (filtered == null) {
					filtered = copyUpTo(input, entry.getKey());
				}
			}
			else if (filtered != null) {
				filtered.addAll(entry.getKey(), entry.getValue());
			}
		}
		return filtered == null ? input : filtered;
	}

	private boolean removed(String name, Set<String> named) {
		return RemoveHopByHopHeadersFilter.HEADERS_REMOVED_ON_REQUEST.contains(name) || named.contains(name)
				|| removeForwarded && name.equals(FORWARDED) || removeXForwarded && name.startsWith(X_FORWARDED);
	}

	/** The header names {@code Connection} lists (Spring splits its comma-separated values), lower-cased. */
	private static Set<String> connectionOptions(HttpHeaders headers) {
		List<String> options = headers.getConnection();
		if (options.isEmpty()) {
			return Set.of();
		}
		Set<String> named = new HashSet<>();
		for (String option : options) {
			named.add(option.toLowerCase(Locale.ROOT));
		}
		return named;
	}

	/** The headers before {@code first}, the first one removed, in their order. */
	private static HttpHeaders copyUpTo(HttpHeaders input, String first) {
		HttpHeaders copy = new HttpHeaders();
		for (Map.Entry<String, List<String>> entry : input.headerSet()) {
			if (entry.getKey().equals(first)) {
				break;
			}
			copy.addAll(entry.getKey(), entry.getValue());
		}
		return copy;
	}

	@Override
	public boolean supports(Type type) {
		return type == this.type;
	}

	@Override
	public int getOrder() {
		return 0;
	}

	/** Puts {@link ProxyHeadersFilter} where Spring Cloud Gateway's three header-removing filters were. */
	public static final class Replacement implements BeanDefinitionRegistryPostProcessor {

		@Override
		public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
			boolean hopByHop = take(registry, "removeHopByHopHeadersFilter");
			boolean forwarded = take(registry, "removeForwardedHeadersFilter");
			boolean xForwarded = take(registry, "removeXForwardedHeadersFilter");
			if (hopByHop || forwarded || xForwarded) {
				registry.registerBeanDefinition("perflabProxyRequestHeadersFilter", new RootBeanDefinition(
						ProxyHeadersFilter.class, () -> new ProxyHeadersFilter(Type.REQUEST, forwarded, xForwarded)));
				registry.registerBeanDefinition("perflabProxyResponseHeadersFilter", new RootBeanDefinition(
						ProxyHeadersFilter.class, () -> new ProxyHeadersFilter(Type.RESPONSE, false, false)));
			}
		}

		private static boolean take(BeanDefinitionRegistry registry, String name) {
			if (!registry.containsBeanDefinition(name)) {
				return false;
			}
			registry.removeBeanDefinition(name);
			return true;
		}

		@Override
		public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		}
	}
}
