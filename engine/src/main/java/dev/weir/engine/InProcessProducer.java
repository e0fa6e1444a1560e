package dev.weir.engine;

import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;

/**
 * The journal a pipeline's in-process producer appends to ({@link Pipeline#append}): opened on first
 * use, closed with the pipeline, and refused after that.
 * <p>
 * Not thread-safe: the journal has one appending thread, which must also be the one that closes the
 * pipeline, or close it once it has stopped appending.
 */
final class InProcessProducer
{
    private final JournalDirectory directory;
    private EventJournal journal;
    private boolean closed;

    InProcessProducer(final JournalDirectory directory)
    {
        this.directory = directory;
    }

    /**
     * @return the journal, opened (and its appender taken) on first use.
     * @throws IllegalStateException once the pipeline is closed.
     */
    EventJournal journal()
    {
        if (journal == null)
        {
            if (closed)
            {
                throw new IllegalStateException("the pipeline is closed");
            }
            journal = EventJournal.open(directory);
        }
        return journal;
    }

    /** Close the journal if it was opened; later appends are refused. */
    void close()
    {
        closed = true;
        if (journal != null)
        {
            journal.close();
            journal = null;
        }
    }
}
