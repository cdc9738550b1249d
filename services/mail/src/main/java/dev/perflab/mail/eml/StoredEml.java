package dev.perflab.mail.eml;

/** Where a mail's EML lives and its decoded size (what a Range request addresses). */
public record StoredEml(String path, boolean compressed, long size) {
}
