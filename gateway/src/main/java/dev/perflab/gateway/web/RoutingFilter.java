package dev.perflab.gateway.web;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;
import reactor.netty.http.client.HttpClient;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.AutowireCapableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.cloud.gateway.config.HttpClientProperties;
import org.springframework.cloud.gateway.filter.NettyRoutingFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.RouteMetadataUtils;
import org.springframework.web.server.ServerWebExchange;

/**
 * Spring Cloud Gateway's routing filter, with the route's response timeout applied to the whole answer, not only to
 * its headers: Spring Cloud Gateway times the wait for the headers, and a body that stalled halfway held its reader
 * (and, for a route body the gateway does not keep yet, the reads waiting for it) as long as the connection lived.
 * Reactor Netty's response timeout is the longest wait between two reads of one answer, headers and body alike, so a
 * service that stops sending for the route's {@code response-timeout} (or the gateway's) ends the read: a 504
 * {@code upstream-timeout} when nothing was answered yet, a cut answer when it was under way.
 * <p>
 * The client for each route is configured once and kept (Spring Cloud Gateway configured a copy per request when a
 * connect timeout is set), and the route's timeouts are read once per route, not per request; when the routes are
 * read again, each route's client is configured anew from them (the copies share one connection pool).
 */
public class RoutingFilter extends NettyRoutingFilter {

	private final HttpClientProperties properties;

	private final ConcurrentHashMap<String, Configured> clients = new ConcurrentHashMap<>();

	public RoutingFilter(HttpClient httpClient, ObjectProvider<List<HttpHeadersFilter>> headersFilters,
			HttpClientProperties properties) {
		super(httpClient, headersFilters, properties);
		this.properties = properties;
	}

	@Override
	protected HttpClient getHttpClient(Route route, ServerWebExchange exchange) {
		Configured configured = clients.get(route.getId());
		if (configured == null || configured.route() != route) {
			// first use, or the routes were read again: the route's timeouts are read once per route object
			HttpClient client = super.getHttpClient(route, exchange);
			Duration responseTimeout = responseTimeout(route);
			configured = new Configured(route,
					responseTimeout == null ? client : client.responseTimeout(responseTimeout));
			clients.put(route.getId(), configured);
		}
		return configured.client();
	}

	/** As Spring Cloud Gateway reads it: the route's metadata (milliseconds, negative for none), else the gateway's. */
	private @Nullable Duration responseTimeout(Route route) {
		Object value = route.getMetadata().get(RouteMetadataUtils.RESPONSE_TIMEOUT_ATTR);
		if (value == null) {
			return properties.getResponseTimeout();
		}
		long millis = value instanceof Number number ? number.longValue() : Long.parseLong(value.toString());
		return millis < 0 ? null : Duration.ofMillis(millis);
	}

	private record Configured(Route route, HttpClient client) {
	}

	/** Puts {@link RoutingFilter} in the place of Spring Cloud Gateway's {@code routingFilter}. */
	public static final class Replacement implements BeanDefinitionRegistryPostProcessor {

		static final String NAME = "routingFilter";

		@Override
		public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
			if (registry.containsBeanDefinition(NAME)) {
				registry.removeBeanDefinition(NAME);
				RootBeanDefinition replacement = new RootBeanDefinition(RoutingFilter.class);
				replacement.setAutowireMode(AutowireCapableBeanFactory.AUTOWIRE_CONSTRUCTOR);
				registry.registerBeanDefinition(NAME, replacement);
			}
		}

		@Override
		public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		}
	}
}
