package dev.perflab.mail.eml;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import dev.perflab.mail.MailProperties;
import dev.perflab.platform.ProblemException;

/**
 * The EML files. Paths in the database are relative to the storage folder and are resolved so that no stored
 * or requested name can leave it. Compressed files are bzip2, as in seed 000's storage.
 * <p>
 * Every office shares the one volume, and the offices' storage quotas together can pass its size: a new file is
 * refused (507) while the volume has no more than {@code perflab.mail.storage-reserve} usable bytes left, so a full
 * volume stops new mail with an answer the caller can read instead of failing sends half-written, and reads go on.
 */
@Component
public class EmlStore {

	private static final Logger log = LoggerFactory.getLogger(EmlStore.class);

	private final Path root;

	private final FileStore volume;

	private final long reserve;

	private final Counter refusals;

	private final AtomicBoolean full = new AtomicBoolean();

	public EmlStore(MailProperties properties, MeterRegistry meters) throws IOException {
		this.root = Files.createDirectories(properties.storage()).toRealPath();
		this.volume = Files.getFileStore(root);
		this.reserve = properties.storageReserve().toBytes();
		this.refusals = Counter.builder("perflab.mail.storage.refusals")
			.description("Sends refused because the EML volume was down to its reserve")
			.register(meters);
	}

	public Path root() {
		return root;
	}

	public Path resolve(String relative) {
		Path path = root.resolve(relative).normalize();
		if (!path.startsWith(root) || relative.indexOf('\0') >= 0) {
			throw ProblemException.notFound("No such message file");
		}
		return path;
	}

	/** The decoded EML bytes, buffered; the caller closes it. */
	public InputStream open(StoredEml eml) throws IOException {
		InputStream file = new BufferedInputStream(Files.newInputStream(resolve(eml.path())), 64 * 1024);
		return eml.compressed() ? new BZip2CompressorInputStream(file) : file;
	}

	/**
	 * Writes a new EML file durably (fsync, then atomic rename) and returns its relative path; 507 before anything is
	 * written while the volume is down to its reserve. A write that fails leaves no file behind.
	 */
	public String write(WriteBody body) throws IOException {
		requireRoom();
		String name = "sent/" + UUID.randomUUID() + ".eml";
		Path target = resolve(name);
		Files.createDirectories(target.getParent());
		Path temp = target.resolveSibling(target.getFileName() + ".tmp");
		try {
			try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
					OutputStream out = Channels.newOutputStream(channel)) {
				body.writeTo(out);
				out.flush();
				channel.force(true);
			}
			Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
		}
		catch (IOException | RuntimeException e) {
			try {
				Files.deleteIfExists(temp);
			}
			catch (IOException notDeleted) {
				e.addSuppressed(notDeleted);
			}
			if (e instanceof IOException) {
				try {
					// the volume may have filled while this file was written (no space left on device): the same refusal
					requireRoom();
				}
				catch (ProblemException full) {
					full.addSuppressed(e);
					throw full;
				}
			}
			throw e;
		}
		return name;
	}

	/** 507 when the volume has no more usable bytes than its reserve. */
	private void requireRoom() {
		long usable = usable();
		if (usable > reserve) {
			if (full.compareAndSet(true, false)) {
				log.info("EML volume {} has {} usable bytes again, above its reserve of {}: new mail is accepted", root,
						usable, reserve);
			}
			return;
		}
		if (full.compareAndSet(false, true)) {
			log.warn("EML volume {} is down to {} usable bytes, its reserve is {}: new mail is refused (507) until "
					+ "space is freed; reads go on", root, usable, reserve);
		}
		throw refused();
	}

	/** One statvfs call on the volume: cheap beside the fsync every write makes. */
	private long usable() {
		try {
			return volume.getUsableSpace();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/** Names neither the free bytes nor the reserve: what is left of a volume every office shares is not a caller's. */
	private ProblemException refused() {
		refusals.increment();
		ProblemException refused = new ProblemException(HttpStatus.INSUFFICIENT_STORAGE, "mail-storage-full",
				"The mail volume is nearly full: new mail is refused until space is freed. Reading mail still works.");
		refused.getBody().setTitle("Mail storage nearly full");
		return refused;
	}

	public void delete(String relative) {
		try {
			discard(relative);
		}
		catch (IOException e) {
			// an orphan file is harmless: no row points at it
		}
	}

	/** Deletes a file a row still names; one already gone is no error, so a release cut short can run again. */
	public void discard(String relative) throws IOException {
		Files.deleteIfExists(resolve(relative));
	}

	@FunctionalInterface
	public interface WriteBody {

		void writeTo(OutputStream out) throws IOException;
	}
}
