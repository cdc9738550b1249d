package dev.perflab.mail;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param listCount lab switch: {@code not-exists} (fixed) or {@code left-join} (seed 000's count)
 * @param emlRead lab switch: {@code streaming} (fixed) or {@code in-memory} (seed 000's parser)
 * @param storage the folder of the EML files (a volume in Kubernetes)
 * @param maxPageSize the largest {@code size} of a mail list page
 * @param maxBodyChars text or HTML body characters returned by a mail read (longer bodies are cut and flagged)
 */
@ConfigurationProperties("perflab.mail")
public record MailProperties(@DefaultValue("not-exists") ListCount listCount, @DefaultValue("streaming") EmlRead emlRead,
		@DefaultValue(".run/mail-storage") Path storage, @DefaultValue("100") int maxPageSize,
		@DefaultValue("1000000") int maxBodyChars) {

	public enum ListCount {

		NOT_EXISTS, LEFT_JOIN

	}

	public enum EmlRead {

		STREAMING, IN_MEMORY

	}
}
