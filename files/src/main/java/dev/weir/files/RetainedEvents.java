package dev.weir.files;

import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;

import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;

/**
 * What retention removed from the start of a journal's events queue, as the commands that read the journal tell
 * it: the oldest offset still available (the history base's first offset B) and the event time its events start
 * at, how many events were removed and up to which event time, and the archive that holds them. It words the
 * refusal of a replay from a removed offset, of a {@code --days} rerun of a day a removed event could belong to,
 * and the note of a replay from the start.
 * <p>
 * A window starting on a UTC day after the day of the greatest removed event time holds no removed event (an
 * event belongs only to windows that start at or before its event time), so the oldest day a rerun recomputes
 * completely is the day after that one.
 * <p>
 * Immutable and thread-safe.
 */
public final class RetainedEvents
{
    private static final long DAY_MS = 86_400_000L;

    private final Path journal;
    private final HistoryBase.Summary base;
    private final long firstEventTime;

    private RetainedEvents(final Path journal, final HistoryBase.Summary base, final long firstEventTime)
    {
        this.journal = journal;
        this.base = base;
        this.firstEventTime = firstEventTime;
    }

    /**
     * @param directory a journal, only read.
     * @return what retention removed from it, or empty if it has no history base (nothing was removed).
     * @throws dev.weir.journal.JournalRefusedException if its history base is corrupt or of another journal.
     */
    public static Optional<RetainedEvents> of(final JournalDirectory directory)
    {
        final Optional<HistoryBase.Summary> base = HistoryBase.read(directory);
        if (base.isEmpty())
        {
            return Optional.empty();
        }
        final long[] time = {-1};
        try (JournalReader reader = JournalReader.open(directory))
        {
            while (time[0] < 0 && reader.poll((offset, eventId, eventTime, keyId, value) -> time[0] = eventTime, 1) > 0)
            {
                // a heartbeat is passed over: read on to the first event
            }
        }
        return Optional.of(new RetainedEvents(directory.root(), base.get(), time[0]));
    }

    /** @return B: the oldest offset still available. */
    public long oldestOffset()
    {
        return base.firstOffset();
    }

    /** @return the events removed. */
    public long removedEvents()
    {
        return base.countsBefore().events();
    }

    /** @return the archive holding the removed cycles, or null if they were deleted. */
    public Path archive()
    {
        return base.archive();
    }

    /**
     * @param from an offset a replay was asked to start at, before {@link #oldestOffset()}.
     * @return the refusal: what is still available, what was removed, where it is.
     */
    public String refusalFrom(final long from)
    {
        return "offset " + from + " of journal " + journal + " was removed by retention: the oldest offset still available is "
            + oldestOffset() + available() + "; the events before it were removed (" + removed() + "); " + archived();
    }

    /**
     * @return the note of a replay from the start of a journal whose oldest events were removed.
     */
    public String replayNote()
    {
        return "events before offset " + oldestOffset() + " were removed by retention (" + removed() + "); replaying from "
            + oldestOffset() + "; " + archived();
    }

    /**
     * @param days the days a rerun is to recompute.
     * @return true if a window starting on one of those days could hold a removed event.
     */
    public boolean mayHold(final DayRange days)
    {
        return base.maxRemovedEventTime() >= 0 && days.first() <= Math.floorDiv(base.maxRemovedEventTime(), DAY_MS);
    }

    /**
     * @return the oldest UTC day (epoch days) whose windows hold no removed event: the day after the greatest
     *         removed event time's, or {@link Long#MIN_VALUE} if no event was removed.
     */
    public long oldestCompleteDay()
    {
        return base.maxRemovedEventTime() < 0 ? Long.MIN_VALUE : Math.floorDiv(base.maxRemovedEventTime(), DAY_MS) + 1;
    }

    /**
     * @param days days for which {@link #mayHold} is true.
     * @return the refusal of a rerun of those days.
     */
    public String refusalOf(final DayRange days)
    {
        final LocalDate oldestDay = LocalDate.ofEpochDay(oldestCompleteDay());
        return "--days " + days + ": retention removed the events of journal " + journal + " before offset " + oldestOffset()
            + " (" + removed() + "), and a window starting on " + LocalDate.ofEpochDay(days.first())
            + " may hold some of them, so its partition cannot be recomputed completely: the oldest complete day still available is "
            + oldestDay + " (the oldest offset available is " + oldestOffset() + "); " + archived();
    }

    /**
     * @param skipped the rows not written.
     * @return the note of a replay into date partitions that left the days a removed event could belong to as they were.
     */
    public String partitionNote(final long skipped)
    {
        return String.format("partitions before %2$s are left as they are (rows not written: %1$,d): "
            + "retention removed some of their events; later days are rewritten", skipped, LocalDate.ofEpochDay(oldestCompleteDay()));
    }

    private String available()
    {
        return firstEventTime < 0 ? " (no event after it yet)"
            : ", whose events start at event time " + Instant.ofEpochMilli(firstEventTime) + " (UTC day "
                + LocalDate.ofEpochDay(Math.floorDiv(firstEventTime, DAY_MS)) + ")";
    }

    private String removed()
    {
        final long events = removedEvents();
        return String.format("%,d %s", events, events == 1 ? "event" : "events")
            + (base.maxRemovedEventTime() < 0 ? "" : ", up to event time " + Instant.ofEpochMilli(base.maxRemovedEventTime()));
    }

    private String archived()
    {
        return archive() == null ? "they were deleted, not archived"
            : "the archive " + archive() + " holds them: add --archive " + archive() + " to replay them";
    }
}
