package dev.perflab.route.points;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AcceptEncodingTest {

	@Test
	void aWeightThatIsNoNumberRefusesGzipInsteadOfFailing() {
		assertThat(PointsController.acceptsGzip("gzip;q=1.2.3")).isFalse();
		assertThat(PointsController.acceptsGzip("gzip;q=")).isFalse();
		assertThat(PointsController.acceptsGzip("gzip;q=0")).isFalse();
		assertThat(PointsController.acceptsGzip("gzip;q=0.5")).isTrue();
		assertThat(PointsController.acceptsGzip("br, gzip")).isTrue();
	}
}
