package dev.perflab.load.shortener;

import dev.perflab.load.lib.Callers;
import dev.perflab.load.lib.Iteration;
import dev.perflab.load.lib.Keep;
import dev.perflab.load.lib.Response;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Tally;

import org.apache.http.entity.ContentType;

import us.abstracta.jmeter.javadsl.http.DslHttpSampler;

import static dev.perflab.load.lib.Check.check;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;

/**
 * The shortener's steps: create a link as the iteration's caller, and follow it as anyone does. The link's target is
 * unique to the iteration ({@code https://example.com/jmeter/<iteration>}), so a redirect can be checked against it.
 */
public final class Links {

	/** The created link's code. */
	public static final String CODE = "link.code";

	/** "true" when the link was created. */
	public static final String CREATED = "link.created";

	private static final String TARGET = "https://example.com/jmeter/${" + Iteration.NUMBER + "}";

	private Links() {
	}

	/** POST /v1/short-links, named {@code create}; keeps the code and whether it was created. */
	public static DslHttpSampler create(String baseUrl) {
		return create(baseUrl, "create is 201");
	}

	/** POST /v1/short-links, named {@code create}, its 201 checked as {@code check}; keeps the code and whether. */
	public static DslHttpSampler create(String baseUrl, String check) {
		return Callers.bearer(httpSampler("create", baseUrl + "/v1/short-links")
			.post("{\"url\":\"" + TARGET + "\"}", ContentType.APPLICATION_JSON))
			.children(check(check, (r) -> r.status() == 201),
					Keep.as(CREATED, (r) -> Boolean.toString(r.status() == 201)),
					Keep.as(CODE, (r) -> r.json("code").asText()));
	}

	/** GET /s/{code} without following it, named {@code redirect}; counts the gateway's edge cache hits. */
	public static DslHttpSampler follow(Scenario.Context context, String edgeHits) {
		return redirect(context.baseUrl()).children(
				check("redirect is 301 or 302", (r) -> r.status() == 301 || r.status() == 302),
				check("redirect points at the link", Links::pointsAtTheLink),
				Tally.count(context, edgeHits, (r) -> "hit".equals(r.header("X-Perflab-Edge-Cache"))));
	}

	/** GET /s/{code} of the iteration's link without following it, named {@code redirect}. */
	public static DslHttpSampler redirect(String baseUrl) {
		return httpSampler("redirect", baseUrl + "/s/${" + CODE + "}").followRedirects(false);
	}

	/** Whether the answer's Location is the iteration's link's target. */
	public static boolean pointsAtTheLink(Response r) {
		return r.header("Location").equals("https://example.com/jmeter/" + r.var(Iteration.NUMBER));
	}

}
