package dev.weir.engine.checkpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import dev.weir.journal.files.FileReplacement;
import dev.weir.journal.schema.NewerFormatException;

/**
 * Durable checkpoint blobs in one directory, safe against a crash at any moment, able to tell a torn or
 * corrupt file from a good one.
 * <p>
 * Each checkpoint is one file {@code checkpoint-<sequence, 20 digits>.bin}: a 24-byte big-endian header
 * (magic {@code 0x57454952} "WEIR", format version 1, sequence long, payload length int, CRC32C of the
 * payload int) followed by the payload. A checkpoint is written to a temporary file (name starting with
 * {@code .}) in the same directory, forced to disk, atomically renamed to its final name ({@link FileReplacement}), and the
 * directory is then forced, so a final name only ever appears with complete, durable content. After a
 * write, only the {@code keep} newest checkpoint files (by sequence, whether valid or not) are retained and
 * leftover temporary files are deleted.
 * <p>
 * Reading takes the newest file whose header and CRC check out, skipping any that do not (bit rot, a
 * file copied or truncated by hand, a filesystem that broke its promises), and reports how many it
 * skipped. A whole, intact file of a newer format version (its CRC checks out) was written by a newer Weir: it
 * is refused with {@link NewerFormatException}, never skipped for an older checkpoint.
 * <p>
 * I/O failures are thrown as {@link UncheckedIOException}.
 * <p>
 * Not thread-safe: one owner thread, and one store per directory.
 */
public final class CheckpointStore
{
    /** The first four bytes of every checkpoint file: "WEIR". */
    public static final int MAGIC = 0x57454952;
    /** The format version this class writes and reads. */
    public static final int FORMAT_VERSION = 1;
    /** Bytes before the payload: magic, version, sequence, length, CRC. */
    public static final int HEADER_BYTES = 4 + 4 + 8 + 4 + 4;

    private static final String PREFIX = "checkpoint-";
    private static final String SUFFIX = ".bin";
    private static final String TEMP_PREFIX = "." + PREFIX;
    private static final String TEMP_SUFFIX = SUFFIX + ".tmp";
    private static final int SEQUENCE_DIGITS = 20;

    private final Path directory;
    private final int keep;
    private final CRC32C crc = new CRC32C();
    private int skippedInvalid;

    /**
     * The content of one valid checkpoint.
     *
     * @param sequence the checkpoint's sequence number.
     * @param payload  the payload, a new heap buffer from position 0 to its limit (the payload length).
     * @param file     the file it was read from, or null for a payload held in memory ({@link dev.weir.engine.Recovery#fromPayload}).
     */
    public record Loaded(long sequence, ByteBuffer payload, Path file)
    {
    }

    /**
     * Open (creating the directory if missing) a checkpoint store.
     *
     * @param directory where the checkpoint files live.
     * @param keep      how many of the newest checkpoints to retain, at least 2 so that a fallback exists.
     * @throws IllegalArgumentException if {@code keep < 2}.
     * @throws UncheckedIOException     if the directory cannot be created.
     */
    public CheckpointStore(final Path directory, final int keep)
    {
        if (keep < 2)
        {
            throw new IllegalArgumentException("keep must be at least 2, was " + keep);
        }
        this.directory = directory.toAbsolutePath().normalize();
        this.keep = keep;
        try
        {
            Files.createDirectories(this.directory);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create checkpoint directory " + this.directory, ex);
        }
    }

    /**
     * Durably write a new checkpoint, then prune old ones. When this returns, the checkpoint is on disk
     * under its final name; a crash at any earlier point leaves at most a temporary file, which is ignored
     * by readers and deleted by the next write.
     *
     * @param payload the bytes from its position to its limit; its position is not changed.
     * @return the new checkpoint's sequence: 1 + the highest sequence present (valid or not), starting at 1.
     * @throws UncheckedIOException if the checkpoint cannot be written, or (after it was written durably)
     *                              if an old checkpoint or temporary file cannot be deleted.
     */
    public long write(final ByteBuffer payload)
    {
        final List<Path> existing = files();
        final long sequence = existing.isEmpty() ? 1 : sequenceOf(existing.get(existing.size() - 1)) + 1;
        final String name = fileName(sequence);
        final Path temp = directory.resolve("." + name + ".tmp");
        final Path target = directory.resolve(name);

        final ByteBuffer body = payload.duplicate();
        crc.reset();
        crc.update(payload.duplicate());
        final ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.BIG_ENDIAN);
        header.putInt(MAGIC).putInt(FORMAT_VERSION).putLong(sequence).putInt(body.remaining()).putInt((int)crc.getValue());
        header.flip();
        try
        {
            FileReplacement.replace(target, temp, true, header, body);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write checkpoint " + target, ex);
        }
        prune();
        return sequence;
    }

    /**
     * Read the newest checkpoint whose header and CRC are valid: file size exactly header plus payload
     * length, magic, format version, sequence matching the file name, and CRC32C of the payload. Invalid
     * files are skipped (and counted, see {@link #skippedInvalid()}), never deleted.
     *
     * @return the newest valid checkpoint, or null if there is none.
     * @throws NewerFormatException if a file newer than the one returned is intact but of a newer format version.
     * @throws UncheckedIOException if the directory or a file cannot be read.
     */
    public Loaded loadNewestValid()
    {
        skippedInvalid = 0;
        final List<Path> present = files();
        for (int i = present.size() - 1; i >= 0; i--)
        {
            final Path file = present.get(i);
            final ByteBuffer payload = readValid(file, sequenceOf(file));
            if (payload != null)
            {
                return new Loaded(sequenceOf(file), payload, file);
            }
            skippedInvalid++;
        }
        return null;
    }

    /**
     * @return how many invalid files the last {@link #loadNewestValid()} skipped: those newer than the
     *         checkpoint it returned, or all of them if it returned null.
     */
    public int skippedInvalid()
    {
        return skippedInvalid;
    }

    /**
     * @return the checkpoint files currently present (valid or not; temporary files excluded), oldest first.
     * @throws UncheckedIOException if the directory cannot be listed.
     */
    public List<Path> files()
    {
        final List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory))
        {
            for (final Path entry : entries)
            {
                if (sequenceOf(entry) > 0 && Files.isRegularFile(entry))
                {
                    found.add(entry);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list checkpoint directory " + directory, ex);
        }
        found.sort((a, b) -> Long.compare(sequenceOf(a), sequenceOf(b)));
        return found;
    }

    /**
     * @return the directory this store writes to (absolute).
     */
    public Path directory()
    {
        return directory;
    }

    private ByteBuffer readValid(final Path file, final long expectedSequence)
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final long size = channel.size();
            if (size < HEADER_BYTES)
            {
                return null;
            }
            final ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.BIG_ENDIAN);
            if (!readFully(channel, header))
            {
                return null;
            }
            header.flip();
            final int magic = header.getInt();
            final int version = header.getInt();
            final long sequence = header.getLong();
            final int length = header.getInt();
            final int expectedCrc = header.getInt();
            if (magic != MAGIC || version < FORMAT_VERSION || sequence != expectedSequence || length < 0 ||
                size != (long)HEADER_BYTES + length)
            {
                return null;
            }
            final ByteBuffer payload = ByteBuffer.allocate(length);
            if (!readFully(channel, payload))
            {
                return null;
            }
            payload.flip();
            crc.reset();
            crc.update(payload.duplicate());
            if ((int)crc.getValue() != expectedCrc)
            {
                return null;
            }
            if (version > FORMAT_VERSION)
            {
                throw new NewerFormatException("checkpoint file", file, version, FORMAT_VERSION);
            }
            return payload;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read checkpoint " + file, ex);
        }
    }

    private void prune()
    {
        final List<Path> present = files();
        for (int i = 0; i < present.size() - keep; i++)
        {
            deleteOrThrow(present.get(i));
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory))
        {
            for (final Path entry : entries)
            {
                final String name = entry.getFileName().toString();
                if (name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX))
                {
                    deleteOrThrow(entry);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list checkpoint directory " + directory, ex);
        }
    }

    private static String fileName(final long sequence)
    {
        return String.format("checkpoint-%020d.bin", sequence);
    }

    /**
     * @return the sequence in a final checkpoint file name, or -1 if it is not one.
     */
    private static long sequenceOf(final Path file)
    {
        final String name = file.getFileName().toString();
        if (name.length() != PREFIX.length() + SEQUENCE_DIGITS + SUFFIX.length() ||
            !name.startsWith(PREFIX) || !name.endsWith(SUFFIX))
        {
            return -1;
        }
        long sequence = 0;
        for (int i = PREFIX.length(); i < PREFIX.length() + SEQUENCE_DIGITS; i++)
        {
            final char c = name.charAt(i);
            if (c < '0' || c > '9' || sequence > (Long.MAX_VALUE - (c - '0')) / 10)
            {
                return -1;
            }
            sequence = sequence * 10 + (c - '0');
        }
        return sequence;
    }

    private static boolean readFully(final FileChannel channel, final ByteBuffer buffer) throws IOException
    {
        while (buffer.hasRemaining())
        {
            if (channel.read(buffer) < 0)
            {
                return false;
            }
        }
        return true;
    }

    private static void deleteOrThrow(final Path file)
    {
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete old checkpoint file " + file, ex);
        }
    }
}
