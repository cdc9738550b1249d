package dev.perflab.load.prometheus;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schema 3 buckets as Prometheus reads them: bucket i holds (2^((i-1)/8), 2^(i/8)].
 */
class NativeHistogramTest {

	@Test
	void putsEachValueInTheBucketWhoseUpperBoundIsTheFirstAtOrAboveIt() {
		assertThat(NativeHistogram.index(1.0)).isZero();
		assertThat(NativeHistogram.index(1.0001)).isEqualTo(1);
		assertThat(NativeHistogram.index(Math.pow(2, 1.0 / 8))).isEqualTo(1);
		assertThat(NativeHistogram.index(2.0)).isEqualTo(8);
		assertThat(NativeHistogram.index(0.5)).isEqualTo(-8);
		assertThat(NativeHistogram.index(0.0032)).isEqualTo((int) Math.ceil(Math.log(0.0032) / Math.log(2) * 8));
	}

	@Test
	void keepsZerosApartAndCountsEverything() {
		NativeHistogram h = new NativeHistogram();
		h.observe(0);
		h.observe(0.003);
		h.observe(0.003);
		h.observe(0.2);
		NativeHistogram.Snapshot s = h.snapshot();
		assertThat(s.count()).isEqualTo(4);
		assertThat(s.zeroCount()).isEqualTo(1);
		assertThat(s.sum()).isEqualTo(0.206, org.assertj.core.data.Offset.offset(1e-12));
		assertThat(s.buckets()).hasSize(2).containsValues(2L, 1L);
	}

}
