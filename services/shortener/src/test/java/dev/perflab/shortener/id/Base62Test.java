package dev.perflab.shortener.id;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

	@Test
	void writesAll64BitsInExactlyElevenCharacters() {
		assertThat(Base62.encodeUnsigned(0)).isEqualTo("00000000000");
		assertThat(Base62.encodeUnsigned(-1L)).isEqualTo("LygHa16AHYF");
		assertThat(Base62.encodeUnsigned(Long.MAX_VALUE)).isEqualTo("AzL8n0Y58m7");
		for (long value : new long[] { 0, 1, 61, 62, Long.MAX_VALUE, Long.MIN_VALUE, -1L, 0x1234_5678_9abc_def0L }) {
			assertThat(Base62.decodeUnsigned(Base62.encodeUnsigned(value))).isEqualTo(value);
		}
		assertThatThrownBy(() -> Base62.decodeUnsigned("LygHa16AHYG")).hasMessageContaining("beyond 64 bits");
		assertThatThrownBy(() -> Base62.decodeUnsigned("zzzzzzzzzzz")).hasMessageContaining("beyond 64 bits");
		assertThatThrownBy(() -> Base62.decodeUnsigned("abc")).isInstanceOf(IllegalArgumentException.class);
	}
}
