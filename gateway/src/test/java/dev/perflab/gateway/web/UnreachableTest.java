package dev.perflab.gateway.web;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.concurrent.TimeoutException;

import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.timeout.ReadTimeoutException;
import org.junit.jupiter.api.Test;
import reactor.netty.channel.AbortedException;
import reactor.netty.http.client.PrematureCloseException;

import static org.assertj.core.api.Assertions.assertThat;

/** What a read is asked again for (and answered 503 for): the service unreachable, never the service late. */
class UnreachableTest {

	@Test
	void aPodComingOrGoingIsUnreachable() {
		assertThat(ReadRetryFilter.unreachable(new ConnectException("Connection refused"))).isTrue();
		assertThat(ReadRetryFilter.unreachable(new ConnectTimeoutException("connection timed out"))).isTrue();
		assertThat(ReadRetryFilter.unreachable(new UnknownHostException("perflab-shortener"))).isTrue();
		assertThat(ReadRetryFilter.unreachable(PrematureCloseException.TEST_EXCEPTION)).isTrue();
		assertThat(ReadRetryFilter.unreachable(new IOException("Connection reset by peer"))).isTrue();
		// what Reactor Netty's pool raises when the connections it hands out are dead: seen when a pod was deleted
		// under load and every pooled connection to the Service led to it (it used to answer 500)
		assertThat(ReadRetryFilter.unreachable(new IllegalStateException("wrapped",
				new IOException("Error while acquiring from reactor.netty.internal.shaded.reactor.pool.SimpleDequePool@1"))))
			.isTrue();
		// a pooled connection the service closed as the request went out on it: seen when a service stopped (SIGTERM)
		assertThat(ReadRetryFilter.unreachable(new AbortedException("Connection has been closed BEFORE send operation")))
			.isTrue();
	}

	@Test
	void aLateOrFailingServiceIsNot() {
		assertThat(ReadRetryFilter.unreachable(new TimeoutException("Response took longer than timeout"))).isFalse();
		assertThat(ReadRetryFilter.unreachable(ReadTimeoutException.INSTANCE)).isFalse();
		assertThat(ReadRetryFilter.unreachable(new IOException("wrapped", new SocketTimeoutException("Read timed out"))))
			.isFalse();
		assertThat(ReadRetryFilter.unreachable(new SocketTimeoutException("Read timed out"))).isFalse();
		assertThat(ReadRetryFilter.unreachable(new IllegalStateException("a bug"))).isFalse();
	}
}
