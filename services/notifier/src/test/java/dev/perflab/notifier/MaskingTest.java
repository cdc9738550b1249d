package dev.perflab.notifier;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The one masking rule, for the guestbook's list and a notification's read alike. */
class MaskingTest {

	@Test
	void keepsOnlyAPhonesLastFourDigitsAndItsLength() {
		assertThat(Masking.phone("01012345678")).isEqualTo("*******5678");
		assertThat(Masking.phone("+821012345678")).isEqualTo("*********5678");
	}

	@Test
	void keepsAnAddresssFirstCharacterAndDomainButNotTheMailboxsLength() {
		assertThat(Masking.email("lee.kim@example.com")).isEqualTo("l***@example.com");
		assertThat(Masking.email("l@example.com")).isEqualTo("l***@example.com");
		assertThat(Masking.email("\"a@b\"@example.com")).isEqualTo("\"***@example.com");
	}
}
