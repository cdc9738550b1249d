package dev.perflab.mail.eml;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.util.unit.DataSize;

import dev.perflab.mail.MailProperties;
import dev.perflab.platform.ProblemException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Writes on the real file store of a temporary folder, with the reserve set against its real usable space. */
class EmlStoreTest {

	@TempDir
	Path storage;

	@Test
	void refusesEveryWriteWhileTheVolumeIsDownToItsReserveBeforeCreatingAnything() throws IOException {
		long reserve = Files.getFileStore(storage).getUsableSpace() + DataSize.ofGigabytes(1).toBytes();
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		EmlStore store = new EmlStore(properties(DataSize.ofBytes(reserve)), meters);
		AtomicBoolean written = new AtomicBoolean();

		assertThatThrownBy(() -> store.write(out -> written.set(true))).isInstanceOfSatisfying(ProblemException.class,
				e -> assertThat(e.getStatusCode().value()).isEqualTo(507));
		assertThat(written).as("the body is never asked for").isFalse();
		assertThat(files()).as("not even the sent/ folder").isEmpty();
		assertThat(meters.get("perflab.mail.storage.refusals").counter().count()).isEqualTo(1);
	}

	@Test
	void writesWhileTheVolumeHasMoreThanItsReserve() throws IOException {
		EmlStore store = new EmlStore(properties(DataSize.ofMegabytes(1)), new SimpleMeterRegistry());
		String path = store.write(out -> out.write("Subject: hi\r\n\r\nhello\r\n".getBytes(StandardCharsets.US_ASCII)));
		assertThat(Files.readString(store.resolve(path))).endsWith("hello\r\n");
	}

	@Test
	void aWriteThatFailsHalfwayLeavesNoFileBehind() throws IOException {
		EmlStore store = new EmlStore(properties(DataSize.ofBytes(0)), new SimpleMeterRegistry());
		assertThatThrownBy(() -> store.write(out -> {
			out.write(new byte[64 * 1024]);
			throw new IOException("the body broke off");
		})).isInstanceOf(IOException.class).hasMessageContaining("broke off");
		try (Stream<Path> sent = Files.list(storage.resolve("sent"))) {
			assertThat(sent).as("no temporary file").isEmpty();
		}
	}

	private List<Path> files() throws IOException {
		try (Stream<Path> all = Files.list(storage)) {
			return all.toList();
		}
	}

	private MailProperties properties(DataSize reserve) {
		return new MailProperties(MailProperties.ListCount.NOT_EXISTS, MailProperties.EmlRead.STREAMING, storage,
				reserve, 100, 1000, MailProperties.SendHandoff.OUTBOX,
				new MailProperties.Relay(false, "http://127.0.0.1:9", 1, 1, Duration.ofSeconds(1), Duration.ofSeconds(30),
						Duration.ofMillis(500), Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofSeconds(5),
						Duration.ofDays(1)),
				new MailProperties.Quota(0, 0, Duration.ofDays(1), DataSize.ofBytes(0)));
	}
}
