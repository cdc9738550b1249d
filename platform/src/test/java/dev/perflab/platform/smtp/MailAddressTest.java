package dev.perflab.platform.smtp;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.perflab.platform.ProblemException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MailAddressTest {

	@ParameterizedTest
	@ValueSource(strings = { "a@example.com", "first.last+tag@mail.example.com", "a@[127.0.0.1]", "\"a.b\"@example.com",
			"o'hara@example.com", "a@example" })
	void acceptsBarePrintableAsciiAddresses(String value) {
		assertThat(MailAddress.parse(value)).hasValueSatisfying(a -> assertThat(a.value()).isEqualTo(value));
	}

	@ParameterizedTest
	@NullAndEmptySource
	@ValueSource(strings = { "x@[\u00fc]", "\u00fc@example.com", "a@ex\u00e4mple.com", "a@example.com\u200b",
			"a@example.c\u043em", "\"a b\"@example.com", " a@example.com", "a@example.com ", "a@example.com\r\nBcc: v@x.com",
			"a\t@example.com", "a@exam\u007fple.com", "Name <a@example.com>", "a@example.com (comment)",
			"group: a@example.com;", "a@b..c", "a.@example.com", "@example.com", "a", "a@b,c@d" })
	void refusesEverythingElse(String value) {
		assertThat(MailAddress.parse(value)).isEmpty();
	}

	@Test
	void refusesAddressesLongerThanAnSmtpPath() {
		String longest = "a".repeat(64) + "@" + "b".repeat(184) + ".test";
		assertThat(longest).hasSize(MailAddress.MAX_LENGTH);
		assertThat(MailAddress.parse(longest)).isPresent();
		assertThat(MailAddress.parse("a" + longest)).isEmpty();
	}

	@Test
	void keepsTheLowerCaseFormBothServicesKeyRecipientsBy() {
		assertThat(MailAddress.require("to[0]", "Jerry@Example.COM").value()).isEqualTo("jerry@example.com");
		assertThat(new MailAddress("Jerry@Example.COM")).isEqualTo(new MailAddress("jerry@example.com"));
		assertThat(MailAddress.require("to[0]", "Jerry@Example.COM").internetAddress().getAddress())
			.isEqualTo("jerry@example.com");
	}

	@Test
	void aRefusalNamesTheFieldAndItsIndexWithoutEchoingRawBytes() {
		assertThatThrownBy(() -> MailAddress.require("cc[3]", "x@[\u00fc]\r\n"))
			.isInstanceOfSatisfying(ProblemException.class, e -> {
				assertThat(e.getStatusCode().value()).isEqualTo(400);
				assertThat(e.problem().getType().toString()).isEqualTo("https://perflab.dev/problems/invalid-address");
				assertThat(e.problem().getDetail()).startsWith("cc[3] ").endsWith(": x@[?]??");
				assertThat((List<?>) e.problem().getProperties().get("errors")).singleElement()
					.satisfies(error -> assertThat(((Map<?, ?>) error).get("field")).isEqualTo("cc[3]"));
			});
	}
}
