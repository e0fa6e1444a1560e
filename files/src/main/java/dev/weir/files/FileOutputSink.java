package dev.weir.files;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

import dev.weir.engine.delivery.DeliveryUnavailableException;
import dev.weir.engine.delivery.OutputSink;
import dev.weir.journal.DeliveryPositions;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;

/**
 * Files as the engine's {@link OutputSink}, for continuous delivery ({@code PipelineBuilder.deliverContinuously}):
 * each delivery that finds new outputs runs a {@link ResultFiles} export, which writes the results (one file or date
 * partitions) and late events whole and replaces each file atomically.
 * <p>
 * The position the files hold is the output journal's last position read just before the export that replaced
 * them: they cover every output up to it (and perhaps a few after). It is kept in the pipeline's delivery record
 * ({@link DeliveryPositions}, table {@value #RECORD_TABLE}, target {@code file:} and the absolute path the sink
 * names), written after the files were replaced, and registered as needing every output before the first export
 * reads, so retention keeps what the files still need. A delivery killed between the replacement and the record
 * exports again and writes the same bytes: each output is in the files once.
 * <p>
 * A file that cannot be written ({@link UncheckedIOException}: a full disk, a directory gone) is
 * {@link DeliveryUnavailableException}, retried; columns not in the journal ({@link ExportRefusedException}) are a
 * refusal.
 * <p>
 * Threads: {@link #deliver} on one delivering thread (it owns the files); {@link #heldPosition()},
 * {@link #pendingResults} and {@link #abort()} on any. An export cannot be interrupted: {@link #abort()} does
 * nothing, an export ends on its own.
 */
public final class FileOutputSink implements OutputSink
{
    /** The table name of the files' delivery record. */
    public static final String RECORD_TABLE = "files";

    private final ResultFiles files;
    private final String target;
    private volatile long held = UNKNOWN;

    /**
     * @param files  the export to run, built for the pipeline's journal that is delivered.
     * @param target the results file or partitions directory the export writes: it names the delivery record.
     */
    public FileOutputSink(final ResultFiles files, final Path target)
    {
        this.files = Objects.requireNonNull(files, "files");
        this.target = "file:" + target.toAbsolutePath().normalize();
    }

    /**
     * Export again if the output journal holds outputs after the position the files hold (always on the first
     * delivery of this sink), then record the new position.
     *
     * @throws DeliveryUnavailableException if a file or the delivery record cannot be written (the files keep what
     *                                      they held).
     * @throws ExportRefusedException       if the columns are not in the journal.
     */
    @Override
    public void deliver(final JournalDirectory journal)
    {
        final Path root = journal.pipelineRoot();
        try
        {
            if (held == UNKNOWN)
            {
                register(root);
            }
            final long last;
            try (OutputJournal output = OutputJournal.open(journal))
            {
                last = output.lastPosition();
            }
            if (last == held)
            {
                return;
            }
            files.export();
            DeliveryPositions.advance(root, RECORD_TABLE, target, last, System.currentTimeMillis());
            held = last;
        }
        catch (final UncheckedIOException ex)
        {
            throw new DeliveryUnavailableException("delivery to " + target + " failed (the journal keeps every output): " + ex.getMessage(), ex);
        }
    }

    /** Register the delivery record before the first read: one from an earlier run is kept, else it needs everything. */
    private void register(final Path root)
    {
        final Path file = DeliveryPositions.file(root, RECORD_TABLE, target);
        if (!Files.exists(file) || DeliveryPositions.readFile(file).problem() != null)
        {
            DeliveryPositions.register(root, RECORD_TABLE, target, DeliveryPositions.EVERYTHING, System.currentTimeMillis());
        }
    }

    /**
     * @return the output journal position the files last replaced cover (-1: they hold none), or {@link #UNKNOWN}
     *         before this sink's first export; any thread.
     */
    @Override
    public long heldPosition()
    {
        return held;
    }

    /** Nothing to abort: an export writes local files and ends on its own. */
    @Override
    public void abort()
    {
    }
}
