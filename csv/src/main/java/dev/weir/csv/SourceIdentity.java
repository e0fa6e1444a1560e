package dev.weir.csv;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * The identity of an input file as an ingest records it in the journal: its absolute path, and a
 * fingerprint (SHA-256) of its first bytes, up to {@value #FINGERPRINT_BYTES}. A file that has only grown
 * since it was last ingested keeps its identity (the bytes the fingerprint covered are unchanged), so
 * ingest resumes after its last recorded line; a file replaced by other content at the same path is a
 * new source. Immutable and thread-safe.
 */
final class SourceIdentity
{
    static final int FINGERPRINT_BYTES = 4096;

    private final String path;
    private final int covered;
    private final String digest;

    private SourceIdentity(final String path, final int covered, final String digest)
    {
        this.path = path;
        this.covered = covered;
        this.digest = digest;
    }

    /**
     * @param file an input file.
     * @return its identity now.
     */
    static SourceIdentity of(final Path file)
    {
        final Path absolute = file.toAbsolutePath().normalize();
        try
        {
            final int covered = (int)Math.min(FINGERPRINT_BYTES, Files.size(absolute));
            return new SourceIdentity(absolute.toString(), covered, digest(absolute, covered));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
    }

    /**
     * Find this file among the sources a journal has ingested: the latest one at the same path whose
     * fingerprint still matches the file's first bytes.
     *
     * @param nextLines sources recorded in the journal, with their next line, in order of latest ingest.
     * @return the recorded identity that matches, or null if the file was never ingested as it is now.
     */
    String findIn(final Map<String, Long> nextLines)
    {
        String match = null;
        for (final String recorded : nextLines.keySet())
        {
            final String[] parts = recorded.split("\t");
            if (parts.length == 3 && parts[0].equals(path))
            {
                try
                {
                    final int n = Integer.parseInt(parts[1]);
                    if (n <= covered && digest(Path.of(path), n).equals(parts[2]))
                    {
                        match = recorded;
                    }
                }
                catch (final NumberFormatException | IOException ex)
                {
                    // not a matching record
                }
            }
        }
        return match;
    }

    @Override
    public String toString()
    {
        return path + "\t" + covered + "\t" + digest;
    }

    private static String digest(final Path file, final int bytes) throws IOException
    {
        try (InputStream in = Files.newInputStream(file))
        {
            final byte[] head = in.readNBytes(bytes);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(head));
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
