package dev.perflab.shortener.id;

/** Where link ids come from: the lab switch {@code perflab.shortener.id-strategy}. */
public interface IdGenerator {

	long nextId();
}
