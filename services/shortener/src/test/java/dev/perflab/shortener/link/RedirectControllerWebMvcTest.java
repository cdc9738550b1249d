package dev.perflab.shortener.link;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import dev.perflab.platform.PlatformWeb;
import dev.perflab.platform.ProblemException;
import dev.perflab.shortener.link.RedirectCache.Target;

import static dev.perflab.platform.ProblemMatchers.problem;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The public redirect's contract: 302 or 301 to the link, a Cache-Control the edge may follow, 404 problems. */
@WebMvcTest(RedirectController.class)
@PlatformWeb
class RedirectControllerWebMvcTest {

	@Autowired
	MockMvc mvc;

	@MockitoBean
	Links links;

	@Test
	void redirectsWith302AndLetsTheEdgeCacheIt() throws Exception {
		Target target = new Target("https://example.com/docs?q=1", false, null);
		given(links.resolve("0000000abcd")).willReturn(target);
		given(links.edgeMaxAge(target)).willReturn(30L);
		mvc.perform(get("/s/0000000abcd"))
			.andExpect(status().isFound())
			.andExpect(header().string("Location", "https://example.com/docs?q=1"))
			.andExpect(header().string("Cache-Control", "max-age=30, public"));
	}

	@Test
	void permanentLinksRedirectWith301() throws Exception {
		Target target = new Target("https://example.com/p", true, null);
		given(links.resolve("0000000abcd")).willReturn(target);
		given(links.edgeMaxAge(target)).willReturn(30L);
		mvc.perform(get("/s/0000000abcd")).andExpect(status().isMovedPermanently());
	}

	@Test
	void aLinkAboutToExpireIsNeverStored() throws Exception {
		Target target = new Target("https://example.com/soon", false, Instant.now().plusMillis(500));
		given(links.resolve("0000000abcd")).willReturn(target);
		given(links.edgeMaxAge(target)).willReturn(0L);
		mvc.perform(get("/s/0000000abcd"))
			.andExpect(status().isFound())
			.andExpect(header().string("Cache-Control", "no-store"));
	}

	@Test
	void anUnknownCodeIsA404Problem() throws Exception {
		given(links.resolve("no-such")).willThrow(ProblemException.notFound("No short link with that code"));
		mvc.perform(get("/s/no-such")).andExpect(problem(404, "not-found"));
	}

	@Test
	void needsNoCaller() throws Exception {
		Target target = new Target("https://example.com/", false, null);
		given(links.resolve("0000000abcd")).willReturn(target);
		mvc.perform(get("/s/0000000abcd").header("X-Perflab-Identity", "bnVsbA.e30.AA")).andExpect(status().isFound());
	}
}
