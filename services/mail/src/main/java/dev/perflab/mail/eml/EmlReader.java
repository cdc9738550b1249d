package dev.perflab.mail.eml;

import java.io.IOException;

/** How a mail read gets headers and bodies out of the EML: the lab switch {@code perflab.mail.eml-read}. */
public interface EmlReader {

	MailView read(StoredEml eml) throws IOException;
}
