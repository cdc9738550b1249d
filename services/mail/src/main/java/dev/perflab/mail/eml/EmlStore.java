package dev.perflab.mail.eml;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;

import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;

import org.springframework.stereotype.Component;

import dev.perflab.mail.MailProperties;
import dev.perflab.platform.ProblemException;

/**
 * The EML files. Paths in the database are relative to the storage folder and are resolved so that no stored
 * or requested name can leave it. Compressed files are bzip2, as in seed 000's storage.
 */
@Component
public class EmlStore {

	private final Path root;

	public EmlStore(MailProperties properties) throws IOException {
		this.root = Files.createDirectories(properties.storage()).toRealPath();
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

	/** Writes a new EML file durably (fsync, then atomic rename) and returns its relative path. */
	public String write(WriteBody body) throws IOException {
		String name = "sent/" + UUID.randomUUID() + ".eml";
		Path target = resolve(name);
		Files.createDirectories(target.getParent());
		Path temp = target.resolveSibling(target.getFileName() + ".tmp");
		try (var channel = java.nio.channels.FileChannel.open(temp, java.nio.file.StandardOpenOption.CREATE_NEW,
				java.nio.file.StandardOpenOption.WRITE); OutputStream out = java.nio.channels.Channels.newOutputStream(channel)) {
			body.writeTo(out);
			out.flush();
			channel.force(true);
		}
		Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
		return name;
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
