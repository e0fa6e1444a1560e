package dev.weir.check;

import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import org.agrona.collections.LongHashSet;

/**
 * What a journal's data-quality checks need, read from the journal without changing it: events,
 * rejected lines, events whose {@code event_id} repeats an earlier one, the newest event time, and the
 * late and skipped counts of the newest checkpoint of the pipeline it is opened as ({@link PipelineProfile}), if
 * that pipeline has processed it. Immutable.
 *
 * @param events          events in the journal.
 * @param rejected        rejected input lines recorded in it.
 * @param duplicateIds    events whose id an earlier event had.
 * @param newestEventTime the greatest event time, or {@link Long#MIN_VALUE} without events.
 * @param processed       events its newest checkpoint counts as processed, or -1 without a checkpoint.
 * @param late            of those, events dropped as late, sent to the late output, or in no window (-1 without one).
 */
public record JournalProfile(long events, long rejected, long duplicateIds, long newestEventTime, long processed, long late)
{
    /**
     * Scan a journal: one pass over its events (a set of the ids seen: about 16 bytes per distinct id).
     *
     * @param directory the journal.
     * @return its profile.
     */
    public static JournalProfile of(final JournalDirectory directory)
    {
        final IngestLog.Counts counts = IngestLog.counts(directory);
        final LongHashSet ids = new LongHashSet();
        final long[] scan = {0, 0, Long.MIN_VALUE}; // events, duplicate ids, newest time
        try (JournalReader reader = JournalReader.open(directory))
        {
            while (reader.poll((offset, id, time, key, value) ->
            {
                scan[0]++;
                if (!ids.add(id))
                {
                    scan[1]++;
                }
                scan[2] = Math.max(scan[2], time);
            }, 4096) > 0)
            {
                // to the end
            }
        }
        final PipelineProfile pipeline = PipelineProfile.of(directory);
        return new JournalProfile(scan[0], counts.rejected(), scan[1], scan[2], pipeline.processed(), pipeline.late());
    }
}
