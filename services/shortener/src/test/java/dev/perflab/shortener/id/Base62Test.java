package dev.perflab.shortener.id;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class Base62Test {

	@Test
	void encodesTheLargestIdInElevenCharacters() {
		assertThat(Base62.encode(Long.MAX_VALUE)).hasSize(Base62.MAX_LENGTH).isEqualTo("AzL8n0Y58m7");
		assertThat(Base62.encode(0)).isEqualTo("0");
		assertThat(Base62.encode(61)).isEqualTo("z");
		assertThat(Base62.encode(62)).isEqualTo("10");
	}

	@Test
	void acceptsOnlyAlphanumericCodesUpToElevenCharacters() {
		assertThat(Base62.isCode("SHzg6KaIca")).isTrue();
		assertThat(Base62.isCode("")).isFalse();
		assertThat(Base62.isCode("abc/../x")).isFalse();
		assertThat(Base62.isCode("a".repeat(12))).isFalse();
		assertThat(Base62.isCode("ab-c")).isFalse();
	}
}
