package dev.perflab.shortener.id;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CodesTest {

	static final Codes CODES = Codes.withKey("dGVzdHMtb25seS1jb2RlLWtleS0wMTIzNDU2Nzg5YWI=");

	static final Codes OTHER_KEY = Codes.withKey("b3RoZXIta2V5LWZvci10aGUtc2FtZS1pZHMtMDEyMzQ=");

	@Test
	void everyCodeIsElevenCharactersAndLeadsBackToItsId() {
		SplittableRandom random = new SplittableRandom(42);
		List<Long> ids = new ArrayList<>(List.of(0L, 1L, Long.MAX_VALUE, Long.MIN_VALUE, -1L));
		random.longs(10_000).forEach(ids::add);
		for (long id : ids) {
			String code = CODES.of(id);
			assertThat(code).hasSize(Base62.MAX_LENGTH).matches("[0-9A-Za-z]{11}");
			assertThat(CODES.idOf(code)).as(code).isEqualTo(id);
		}
	}

	/**
	 * The codes of one worker's consecutive Snowflake ids, as a scraper would collect them: neighbours differ in
	 * half their bits, every bit flips half the time, and codes share a first character no more than by chance.
	 */
	@Test
	void codesOfConsecutiveIdsShareNoVisibleStructure() {
		List<Long> ids = consecutiveSnowflakeIds(7, 10_000);
		long distance = 0;
		int[] flips = new int[64];
		int samePrefix = 0;
		int sameFirstCharacter = 0;
		for (int i = 1; i < ids.size(); i++) {
			long a = CODES.permute(ids.get(i - 1));
			long b = CODES.permute(ids.get(i));
			long changed = a ^ b;
			distance += Long.bitCount(changed);
			for (int bit = 0; bit < 64; bit++) {
				flips[bit] += (int) ((changed >>> bit) & 1);
			}
			String codeA = CODES.of(ids.get(i - 1));
			String codeB = CODES.of(ids.get(i));
			sameFirstCharacter += codeA.charAt(0) == codeB.charAt(0) ? 1 : 0;
			samePrefix += codeA.regionMatches(0, codeB, 0, 2) ? 1 : 0;
		}
		int pairs = ids.size() - 1;
		assertThat((double) distance / pairs).as("mean Hamming distance of neighbours").isBetween(31.0, 33.0);
		for (int bit = 0; bit < 64; bit++) {
			assertThat((double) flips[bit] / pairs).as("bit %d flips between neighbours", bit).isBetween(0.45, 0.55);
		}
		// the first of 11 digits of a 64-bit number takes 22 values: 1/22 of random pairs share it
		assertThat((double) sameFirstCharacter / pairs).isLessThan(0.07);
		assertThat((double) samePrefix / pairs).as("neighbours sharing two characters").isLessThan(0.005);
	}

	@Test
	void theWorkerIdCannotBeReadFromACode() {
		long millis = Snowflake.EPOCH_MILLIS + 50_000_000_000L;
		long distance = 0;
		for (int worker = 1; worker <= Snowflake.MAX_WORKER; worker++) {
			long a = CODES.permute(new Snowflake(worker - 1, () -> millis, 50).nextId());
			long b = CODES.permute(new Snowflake(worker, () -> millis, 50).nextId());
			distance += Long.bitCount(a ^ b);
		}
		assertThat((double) distance / Snowflake.MAX_WORKER).isBetween(30.0, 34.0);
	}

	@Test
	void anotherKeyGivesOtherCodes() {
		List<Long> ids = consecutiveSnowflakeIds(1, 1_000);
		assertThat(ids).allSatisfy(id -> assertThat(OTHER_KEY.of(id)).isNotEqualTo(CODES.of(id)));
	}

	@Test
	void refusesToStartWithoutAGoodKey() {
		for (String key : new String[] { null, "", "  ", "not base64!", "c2hvcnQ=" }) {
			assertThatThrownBy(() -> Codes.withKey(key)).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("PERFLAB_SHORTENER_CODEKEY");
		}
	}

	private static List<Long> consecutiveSnowflakeIds(int worker, int count) {
		AtomicLong clock = new AtomicLong(Snowflake.EPOCH_MILLIS + 50_000_000_000L);
		Snowflake snowflake = new Snowflake(worker, clock::get, 50);
		List<Long> ids = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			if (i % 3 == 0) {
				clock.incrementAndGet();
			}
			ids.add(snowflake.nextId());
		}
		return ids;
	}
}
