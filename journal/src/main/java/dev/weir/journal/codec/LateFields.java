package dev.weir.journal.codec;

/**
 * The fields of one late event routed to the side output: the event as it was appended (id, time, key
 * id, value) and its journal offset. What {@link dev.weir.journal.OutputJournal#appendLate(LateFields)} copies and a
 * {@link LateEventDecoder} exposes. Implementations are flyweights, valid while their owner says so;
 * their thread-safety is theirs to state.
 */
public interface LateFields
{
    /** @return the event's id. */
    long eventId();

    /** @return the event's time, epoch ms. */
    long eventTime();

    /** @return the event's key id. */
    int keyId();

    /** @return the event's value. */
    long value();

    /** @return the event's journal offset. */
    long offset();
}
