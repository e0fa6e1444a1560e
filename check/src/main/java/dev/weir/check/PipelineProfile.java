package dev.weir.check;

import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.status.CheckpointCounts;
import dev.weir.engine.status.CheckpointSummary;
import dev.weir.engine.status.NewestCheckpoint;
import dev.weir.journal.JournalDirectory;

/**
 * What the {@code late} check needs of one pipeline of a journal, read from its newest valid checkpoint without
 * changing anything: the events it processed and, of those, the events dropped as late, sent to the late output
 * or in no window. Immutable.
 *
 * @param name      the pipeline's name ({@link JournalDirectory#DEFAULT_PIPELINE} for the journal's root).
 * @param processed events its newest checkpoint counts as processed, or -1 without a checkpoint.
 * @param late      of those, events dropped as late, sent to the late output, or in no window (-1 without one).
 */
public record PipelineProfile(String name, long processed, long late)
{
    /**
     * @param pipeline the journal as one pipeline sees it ({@link JournalDirectory#pipeline(String)}).
     * @return that pipeline's profile.
     */
    public static PipelineProfile of(final JournalDirectory pipeline)
    {
        final CheckpointSummary newest = NewestCheckpoint.read(pipeline).newest().orElse(null); // reads only: creates no directory
        if (newest == null)
        {
            return new PipelineProfile(pipeline.pipelineName(), -1, -1);
        }
        final CheckpointCounts counts = newest.counts();
        return new PipelineProfile(pipeline.pipelineName(), counts.events(), counts.dropped() + counts.sideOutput() + counts.inNoWindow());
    }

    /**
     * @param journal a journal.
     * @return the profile of every pipeline that has processed it ({@link JournalDirectory#pipelines()}, in that
     *         order); empty if none has.
     */
    public static List<PipelineProfile> allOf(final JournalDirectory journal)
    {
        final List<PipelineProfile> profiles = new ArrayList<>();
        for (final String name : journal.pipelines())
        {
            profiles.add(of(journal.pipeline(name)));
        }
        return profiles;
    }
}
