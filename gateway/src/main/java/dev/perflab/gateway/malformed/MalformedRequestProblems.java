package dev.perflab.gateway.malformed;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.reactor.netty.NettyServerCustomizer;

import dev.perflab.gateway.web.Problems;

/**
 * Requests refused before any Spring code runs leave as problem+json too. Reactor Netty answers an over-long request
 * line (414), over-large headers (431) and an undecodable request (400) itself, and WebFlux answers a URI it
 * cannot parse ({@code %zz}) with a bare 400: all with an empty body. A handler right after the HTTP codec gives
 * those empty error answers the body every other refusal has; any answer that has a body passes untouched.
 */
public class MalformedRequestProblems implements NettyServerCustomizer {

	static final String HANDLER = "perflab.malformedRequestProblems";

	@Override
	public HttpServer apply(HttpServer server) {
		return server.doOnChannelInit((observer, channel, remote) -> {
			if (channel.pipeline().get(NettyPipeline.HttpCodec) != null && channel.pipeline().get(HANDLER) == null) {
				channel.pipeline().addAfter(NettyPipeline.HttpCodec, HANDLER, new Handler());
			}
		});
	}

	static final class Handler extends ChannelDuplexHandler {

		private boolean head;

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
			if (msg instanceof HttpRequest request) {
				head = HttpMethod.HEAD.equals(request.method());
			}
			super.channelRead(ctx, msg);
		}

		@Override
		public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
			if (msg instanceof FullHttpResponse response && !head && response.content().readableBytes() == 0
					&& !response.headers().contains(HttpHeaderNames.CONTENT_TYPE)) {
				String slug = switch (response.status().code()) {
					case 400 -> "malformed-request";
					case 414 -> "uri-too-long";
					case 431 -> "header-fields-too-large";
					default -> null;
				};
				if (slug != null) {
					msg = withProblem(response, slug);
				}
			}
			super.write(ctx, msg, promise);
		}

		private static FullHttpResponse withProblem(FullHttpResponse response, String slug) {
			int status = response.status().code();
			String detail = switch (status) {
				case 414 -> "The request line is longer than the gateway accepts";
				case 431 -> "The request headers are larger than the gateway accepts";
				default -> "The request could not be read (malformed request line, URI or headers)";
			};
			byte[] body = ("{\"type\":\"" + Problems.BASE + slug + "\",\"title\":\"" + response.status().reasonPhrase()
					+ "\",\"status\":" + status + ",\"detail\":\"" + detail + "\"}")
				.getBytes(StandardCharsets.UTF_8);
			FullHttpResponse replaced = response.replace(Unpooled.wrappedBuffer(body));
			response.release();
			replaced.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/problem+json");
			replaced.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.length);
			return replaced;
		}
	}
}
