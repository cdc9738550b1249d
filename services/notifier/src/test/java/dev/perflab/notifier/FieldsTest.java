package dev.perflab.notifier;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.perflab.platform.ProblemException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Input refused or normalised before anything is written. */
class FieldsTest {

	@Test
	void spellsEveryFormOfANumberInE164() {
		assertThat(List.of("+821012345678", "821012345678", "00821012345678", "01012345678",
				"010-1234-5678", "010 1234 5678", "+82 10-1234-5678", "+82 010-1234-5678", "0082 010 1234 5678"))
			.allSatisfy(spelling -> assertThat(Fields.phone("phone", spelling)).as(spelling).isEqualTo("+821012345678"));
		assertThat(Fields.phone("phone", "+1 415-555-0100")).isEqualTo("+14155550100");
		assertThat(Fields.phone("phone", "0044 20 7946 0958")).isEqualTo("+442079460958");
		assertThat(Fields.phone("phone", "02-312-3456")).as("a Seoul landline").isEqualTo("+8223123456");
	}

	@Test
	void refusesWhatCannotBeAPhoneNumber() {
		assertThat(Arrays.asList(null, "", "+", "00", "0", "12ab", "call me", "+0101234567", "0001012345678",
				"+82", "+82+1012345678", "1234567", "0101234567890123", "+1234567890123456", "010.1234.5678",
				"010\u00a01234\u00a05678", "\uff10\uff11\uff10\uff11\uff12\uff13\uff14\uff15\uff16\uff17\uff18"))
			.allSatisfy(value -> assertThatExceptionOfType(ProblemException.class)
				.as(String.valueOf(value))
				.isThrownBy(() -> Fields.phone("phone", value))
				.satisfies(e -> assertThat(e.getStatusCode().value()).isEqualTo(400)));
	}
}
