package dev.weir.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The identity and layout of a Weir journal directory on disk.
 * <p>
 * A Weir journal directory holds a marker file {@value #MARKER_FILE} naming the format and its
 * version (and the events' {@link JournalSchema}, unless it is the default, and the {@link JournalRollCycle} of
 * its queues; a marker without one is {@link JournalRollCycle#DAILY}), a Chronicle Queue of events (with the key definitions and the ingest records) in
 * {@code events/}, one of outputs in {@code results/}, and checkpoints in {@code checkpoints/}. {@link #create(Path)} makes a new journal in a missing or empty directory;
 * {@link #open(Path)} accepts only a directory that already carries a valid marker. A directory that
 * holds anything else is refused with {@link JournalRefusedException} and is never written into. Every way
 * in first sets Chronicle's analytics off and checks the JVM's flags ({@link JvmFlags#prepare()}).
 * <p>
 * Several pipelines may process one journal, each with its own state: {@link #pipeline(String)} gives the
 * view of one. They share the root, the events queue and the schema; what a pipeline writes (its output
 * journal, checkpoints, metrics file and results lock) is its own. The pipeline named {@value #DEFAULT_PIPELINE}
 * is the journal itself, with those at the root (the layout of journals made before named pipelines); any
 * other pipeline's are under {@code pipelines/NAME/}, created on first use. {@link #open} and {@link #create}
 * return the default pipeline's view.
 * <p>
 * Immutable and thread-safe.
 */
public final class JournalDirectory
{
    /** Name of the marker file that makes a directory a Weir journal. */
    public static final String MARKER_FILE = "weir-journal";
    /** The format this build writes and reads. */
    public static final String FORMAT_LINE = "format=weir-journal";
    /** The format version this build writes and reads. */
    public static final int FORMAT_VERSION = 2;

    /** The name of the pipeline whose files are at the journal's root. */
    public static final String DEFAULT_PIPELINE = "default";
    /** The directory under the root that holds the named pipelines, one subdirectory each. */
    public static final String PIPELINES_DIRECTORY = "pipelines";
    /** The rule a pipeline name follows. */
    public static final String PIPELINE_NAME_RULE = "[a-z0-9][a-z0-9_-]{0,63}";

    private static final java.util.regex.Pattern PIPELINE_NAME = java.util.regex.Pattern.compile(PIPELINE_NAME_RULE);
    private static final String VERSION_PREFIX = "version=";
    private static final String ID_PREFIX = "id=";
    private static final String SCHEMA_PREFIX = "schema=";
    private static final String ROLL_CYCLE_PREFIX = "roll-cycle=";

    private final Path root;
    private final String journalId;
    private final JournalSchema schema;
    private final String pipelineName;
    private final Path pipelineRoot;
    private final JournalRollCycle rollCycle;

    private JournalDirectory(final Path root, final String journalId, final JournalSchema schema, final JournalRollCycle rollCycle)
    {
        this(root, journalId, schema, rollCycle, DEFAULT_PIPELINE, root);
    }

    private JournalDirectory(
        final Path root, final String journalId, final JournalSchema schema, final JournalRollCycle rollCycle, final String pipelineName,
        final Path pipelineRoot)
    {
        this.root = root;
        this.journalId = journalId;
        this.schema = schema;
        this.rollCycle = rollCycle;
        this.pipelineName = pipelineName;
        this.pipelineRoot = pipelineRoot;
    }

    /**
     * The view of this journal that one pipeline uses: the same root, events queue and schema, with its own
     * output journal, checkpoints, metrics file and results lock. Creates nothing: a named pipeline's
     * directory is made when it first writes.
     *
     * @param name the pipeline's name: {@value #DEFAULT_PIPELINE} for the journal's own, or another matching
     *             {@value #PIPELINE_NAME_RULE}.
     * @return the view.
     * @throws IllegalArgumentException if the name does not follow the rule.
     */
    public JournalDirectory pipeline(final String name)
    {
        checkPipelineName(name);
        if (DEFAULT_PIPELINE.equals(name))
        {
            return pipelineName.equals(name) ? this : new JournalDirectory(root, journalId, schema, rollCycle);
        }
        return pipelineName.equals(name)
            ? this
            : new JournalDirectory(root, journalId, schema, rollCycle, name, root.resolve(PIPELINES_DIRECTORY).resolve(name));
    }

    /**
     * @param name a pipeline name.
     * @return the name.
     * @throws IllegalArgumentException if it does not match {@value #PIPELINE_NAME_RULE}.
     */
    public static String checkPipelineName(final String name)
    {
        if (name == null || !PIPELINE_NAME.matcher(name).matches())
        {
            throw new IllegalArgumentException("pipeline name '" + name + "' is not valid: it must match " + PIPELINE_NAME_RULE
                + " (a lowercase letter or digit, then up to 63 lowercase letters, digits, '_' or '-')");
        }
        return name;
    }

    /**
     * @return the name of the pipeline this view belongs to ({@value #DEFAULT_PIPELINE} for the journal's own).
     */
    public String pipelineName()
    {
        return pipelineName;
    }

    /**
     * @return the directory of this pipeline's own files: the root for {@value #DEFAULT_PIPELINE}, else
     *         {@code pipelines/NAME} under it (which may not exist yet).
     */
    public Path pipelineRoot()
    {
        return pipelineRoot;
    }

    /**
     * The pipelines that have processed this journal: {@value #DEFAULT_PIPELINE} first if it has a
     * checkpoint or an output, then the named ones found under {@code pipelines/}, sorted by name.
     * Reads the disk each call.
     *
     * @return the names.
     */
    public List<String> pipelines()
    {
        final List<String> names = new java.util.ArrayList<>();
        final JournalDirectory base = pipeline(DEFAULT_PIPELINE);
        if (hasFiles(base.checkpoints()) || hasOutputs(base))
        {
            names.add(DEFAULT_PIPELINE);
        }
        final Path pipelines = root.resolve(PIPELINES_DIRECTORY);
        if (Files.isDirectory(pipelines))
        {
            final List<String> named = new java.util.ArrayList<>();
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(pipelines))
            {
                for (final Path entry : entries)
                {
                    final String name = entry.getFileName().toString();
                    if (Files.isDirectory(entry) && !DEFAULT_PIPELINE.equals(name) && PIPELINE_NAME.matcher(name).matches())
                    {
                        named.add(name);
                    }
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot list " + pipelines, ex);
            }
            java.util.Collections.sort(named);
            names.addAll(named);
        }
        return names;
    }

    private static boolean hasFiles(final Path dir)
    {
        if (!Files.isDirectory(dir))
        {
            return false;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir))
        {
            return entries.iterator().hasNext();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + dir, ex);
        }
    }

    private static boolean hasOutputs(final JournalDirectory directory)
    {
        if (!Files.isDirectory(directory.resultsQueue()))
        {
            return false;
        }
        try (OutputJournal outputs = OutputJournal.open(directory))
        {
            return outputs.lastPosition() != OutputJournal.NONE;
        }
    }

    /**
     * Open an existing journal, or create one in a directory that is missing or empty.
     *
     * @param directory where the journal lives.
     * @return the journal directory.
     * @throws JournalRefusedException if the directory exists, is not empty and is not a Weir journal
     *                                 of this format version.
     * @throws JvmFlagsMissingException if this JVM lacks flags Chronicle needs ({@link JvmFlags}).
     */
    public static JournalDirectory openOrCreate(final Path directory)
    {
        return openOrCreate(directory, null);
    }

    /**
     * Open an existing journal of a given schema, or create one with it in a directory that is missing or
     * empty.
     *
     * @param directory where the journal lives.
     * @param schema    the schema its events must have, or null to take an existing journal's whatever it
     *                  is (and {@link JournalSchema#DEFAULT} for a new one).
     * @return the journal directory.
     * @throws JournalRefusedException if the directory exists, is not empty and is not a Weir journal of
     *                                 this format version, or is one whose schema differs (both are named).
     * @throws JvmFlagsMissingException if this JVM lacks flags Chronicle needs ({@link JvmFlags}).
     */
    public static JournalDirectory openOrCreate(final Path directory, final JournalSchema schema)
    {
        return openOrCreate(directory, schema, null);
    }

    /**
     * Open an existing journal of a given schema and roll cycle, or create one with them in a directory that is
     * missing or empty.
     *
     * @param directory where the journal lives.
     * @param schema    the schema its events must have, or null to take an existing journal's whatever it
     *                  is (and {@link JournalSchema#DEFAULT} for a new one).
     * @param rollCycle the roll cycle it must have, or null to take an existing journal's whatever it is (and
     *                  {@link JournalRollCycle#DEFAULT} for a new one).
     * @return the journal directory.
     * @throws JournalRefusedException if the directory exists, is not empty and is not a Weir journal of
     *                                 this format version, or is one whose schema or roll cycle differs (both are named).
     * @throws JvmFlagsMissingException if this JVM lacks flags Chronicle needs ({@link JvmFlags}).
     */
    public static JournalDirectory openOrCreate(final Path directory, final JournalSchema schema, final JournalRollCycle rollCycle)
    {
        JvmFlags.prepare();
        final Path root = directory.toAbsolutePath().normalize();
        if (Files.isRegularFile(root.resolve(MARKER_FILE)))
        {
            final JournalDirectory existing = open(root);
            if (schema != null && !existing.schema.equals(schema))
            {
                throw new JournalRefusedException(root, "its events have the columns " + existing.schema + ", not " + schema);
            }
            existing.checkRollCycle(rollCycle);
            return existing;
        }
        return create(root, schema == null ? JournalSchema.DEFAULT : schema, rollCycle == null ? JournalRollCycle.DEFAULT : rollCycle);
    }

    /**
     * Refuse a roll cycle other than this journal's.
     *
     * @param wanted the roll cycle asked for, or null for any.
     * @return this.
     * @throws JournalRefusedException if it differs from the one the journal was created with.
     */
    public JournalDirectory checkRollCycle(final JournalRollCycle wanted)
    {
        if (wanted != null && wanted != rollCycle)
        {
            throw new JournalRefusedException(root, "it was created with roll cycle " + rollCycle
                + ", not " + wanted + "; a journal's roll cycle cannot change");
        }
        return this;
    }

    /**
     * Create a new journal in a directory that is missing or empty.
     * <p>
     * The journal is built whole in a staging directory beside the target (marker, and the queues of
     * events and outputs with their metadata initialised), then renamed into place: a process killed
     * during creation leaves no half-made journal, only a staging directory the next creation replaces.
     *
     * @param directory where the journal will live.
     * @return the journal directory.
     * @throws JournalRefusedException if the path is a file, or a directory that is not empty.
     */
    public static JournalDirectory create(final Path directory)
    {
        return create(directory, JournalSchema.DEFAULT);
    }

    /**
     * Create a new journal whose events have the given columns, as {@link #create(Path)} does. The schema is
     * recorded in the marker (a default journal's marker stays as it was before schemas existed).
     *
     * @param directory where the journal will live.
     * @param schema    the columns of its events.
     * @return the journal directory.
     * @throws JournalRefusedException if the path is a file, or a directory that is not empty.
     * @throws JvmFlagsMissingException if this JVM lacks flags Chronicle needs ({@link JvmFlags}).
     */
    public static JournalDirectory create(final Path directory, final JournalSchema schema)
    {
        return create(directory, schema, JournalRollCycle.DEFAULT);
    }

    /**
     * Create a new journal whose events have the given columns and whose queues roll with the given cycle, as
     * {@link #create(Path)} does. Both are recorded in the marker, unless they are the defaults (whose marker
     * stays as it was before schemas and roll cycles existed: {@code roll-cycle=} is written for minutely and hourly).
     *
     * @param directory where the journal will live.
     * @param schema    the columns of its events.
     * @param rollCycle how long each file of its queues covers; fixed for the journal's life.
     * @return the journal directory.
     * @throws JournalRefusedException if the path is a file, or a directory that is not empty.
     * @throws JvmFlagsMissingException if this JVM lacks flags Chronicle needs ({@link JvmFlags}).
     */
    public static JournalDirectory create(final Path directory, final JournalSchema schema, final JournalRollCycle rollCycle)
    {
        JvmFlags.prepare();
        final Path root = directory.toAbsolutePath().normalize();
        if (Files.exists(root) && !Files.isDirectory(root))
        {
            throw new JournalRefusedException(root, "it is a file, not a directory");
        }
        try
        {
            if (Files.isDirectory(root) && !isEmpty(root))
            {
                throw new JournalRefusedException(
                    root, "it is not empty and holds no '" + MARKER_FILE + "' marker, so it is not a Weir journal");
            }
            final Path parent = root.getParent();
            Files.createDirectories(parent);
            final Path staging = parent.resolve("." + root.getFileName() + ".weir-creating");
            deleteRecursively(staging);
            Files.createDirectories(staging);
            final String id = java.util.UUID.randomUUID().toString();
            final List<String> marker = new java.util.ArrayList<>(List.of(FORMAT_LINE, VERSION_PREFIX + FORMAT_VERSION, ID_PREFIX + id));
            if (!schema.isDefault())
            {
                marker.add(SCHEMA_PREFIX + schema);
            }
            if (rollCycle != JournalRollCycle.DEFAULT)
            {
                marker.add(ROLL_CYCLE_PREFIX + rollCycle.cliName()); // a daily journal's marker stays as it was before roll cycles
            }
            Files.write(staging.resolve(MARKER_FILE), marker, StandardCharsets.UTF_8);
            final JournalDirectory staged = new JournalDirectory(staging, id, schema, rollCycle);
            JournalQueues.open(staged, staged.eventsQueue()).close();
            JournalQueues.open(staged, staged.resultsQueue()).close();
            if (Files.isDirectory(root))
            {
                Files.delete(root); // empty: checked above; rename(2) would replace it, Java's move will not
            }
            Files.move(staging, root, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create journal directory " + root, ex);
        }
        return open(root);
    }

    private static void deleteRecursively(final Path path) throws IOException
    {
        if (!Files.exists(path))
        {
            return;
        }
        try (java.util.stream.Stream<Path> paths = Files.walk(path))
        {
            for (final Path p : (Iterable<Path>)paths.sorted(java.util.Comparator.reverseOrder())::iterator)
            {
                Files.delete(p);
            }
        }
    }

    /**
     * Open an existing journal.
     *
     * @param directory where the journal lives.
     * @return the journal directory.
     * @throws JournalRefusedException if it is missing, or is not a Weir journal of this format version.
     * @throws JvmFlagsMissingException if this JVM lacks flags Chronicle needs ({@link JvmFlags}); nothing is
     *                                  read or written then.
     */
    public static JournalDirectory open(final Path directory)
    {
        JvmFlags.prepare();
        final Path root = directory.toAbsolutePath().normalize();
        if (!Files.isDirectory(root))
        {
            throw new JournalRefusedException(root, "no such directory");
        }
        final Path marker = root.resolve(MARKER_FILE);
        if (!Files.isRegularFile(marker))
        {
            throw new JournalRefusedException(root, "it holds no '" + MARKER_FILE + "' marker, so it is not a Weir journal");
        }
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(marker, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new JournalRefusedException(root, "its marker cannot be read (" + ex.getMessage() + ")", ex);
        }
        if (lines.size() < 2 || !FORMAT_LINE.equals(lines.get(0).trim()) || !lines.get(1).startsWith(VERSION_PREFIX))
        {
            throw new JournalRefusedException(root, "its '" + MARKER_FILE + "' marker is not a Weir journal marker");
        }
        final String version = lines.get(1).substring(VERSION_PREFIX.length()).trim();
        if (!String.valueOf(FORMAT_VERSION).equals(version))
        {
            throw new JournalRefusedException(
                root, "it is journal format version " + version + ", this build reads version " + FORMAT_VERSION);
        }
        final String id = lines.size() > 2 && lines.get(2).startsWith(ID_PREFIX)
            ? lines.get(2).substring(ID_PREFIX.length()).trim()
            : "path:" + root; // journals made before ids were written
        JournalSchema schema = JournalSchema.DEFAULT; // journals made before schemas, and default ones
        JournalRollCycle rollCycle = JournalRollCycle.DEFAULT; // journals made before roll cycles were recorded
        for (final String line : lines)
        {
            if (line.startsWith(SCHEMA_PREFIX))
            {
                try
                {
                    schema = JournalSchema.parse(line.substring(SCHEMA_PREFIX.length()).trim());
                }
                catch (final IllegalArgumentException ex)
                {
                    throw new JournalRefusedException(root, "its marker's schema cannot be read (" + ex.getMessage() + ")", ex);
                }
            }
            else if (line.startsWith(ROLL_CYCLE_PREFIX))
            {
                try
                {
                    rollCycle = JournalRollCycle.parse(line.substring(ROLL_CYCLE_PREFIX.length()).trim());
                }
                catch (final IllegalArgumentException ex)
                {
                    throw new JournalRefusedException(root, "its marker's roll cycle cannot be read (" + ex.getMessage() + ")", ex);
                }
            }
        }
        return new JournalDirectory(root, id, schema, rollCycle);
    }

    /**
     * @param directory a path.
     * @return true if the path is a directory carrying a Weir journal marker.
     */
    public static boolean isJournal(final Path directory)
    {
        return Files.isRegularFile(directory.resolve(MARKER_FILE));
    }

    /** @return the id of the journal itself (the same for every pipeline's view of it). */
    String journalId()
    {
        return journalId;
    }

    /**
     * @return the identity of this pipeline's outputs: for {@value #DEFAULT_PIPELINE}, the journal's identity,
     *         a random UUID written into its marker when it was created, so a journal deleted and created again
     *         at the same path is another journal (a journal made before ids were written is identified by
     *         {@code path:} and its absolute root); for a named pipeline, that followed by
     *         {@code /pipelines/NAME}. Sinks that keep their own offsets, such as the PostgreSQL sink, key them
     *         by it, so each pipeline of a journal has its own.
     */
    public String id()
    {
        return DEFAULT_PIPELINE.equals(pipelineName) ? journalId : journalId + "/" + PIPELINES_DIRECTORY + "/" + pipelineName;
    }

    /**
     * @return the columns of the journal's events, fixed when it was created.
     */
    public JournalSchema schema()
    {
        return schema;
    }

    /**
     * @return how long each file (cycle) of the journal's queues covers, fixed when it was created
     *         ({@link JournalRollCycle#DAILY} for a journal made before roll cycles were recorded).
     */
    public JournalRollCycle rollCycle()
    {
        return rollCycle;
    }

    /**
     * @return the absolute root of the journal.
     */
    public Path root()
    {
        return root;
    }

    /**
     * @return the queue of events, in arrival order: the offset log.
     */
    public Path eventsQueue()
    {
        return root.resolve("events");
    }

    /**
     * @return this pipeline's queue of window results (its output journal), each carrying the source offset
     *         it covers.
     */
    public Path resultsQueue()
    {
        return pipelineRoot.resolve("results");
    }

    /**
     * @return the directory of this pipeline's checkpoints.
     */
    public Path checkpoints()
    {
        return pipelineRoot.resolve("checkpoints");
    }

    /**
     * @return the memory-mapped file of this pipeline's live counters ({@code weir stat} reads it).
     */
    public Path metricsFile()
    {
        return pipelineRoot.resolve("metrics.dat");
    }

    private static boolean isEmpty(final Path dir) throws IOException
    {
        // a marker's temporary file alone is what a creation killed before its rename leaves behind
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir))
        {
            for (final Path entry : entries)
            {
                if (!entry.getFileName().toString().equals(MARKER_FILE + ".tmp"))
                {
                    return false;
                }
            }
            return true;
        }
    }

    @Override
    public String toString()
    {
        return DEFAULT_PIPELINE.equals(pipelineName) ? root.toString() : root + " (pipeline " + pipelineName + ")";
    }
}
