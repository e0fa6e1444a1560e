package dev.weir.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.weir.journal.files.FileReplacement;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.NewerFormatException;
import dev.weir.journal.schema.TableDefinition;

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
 * <b>Columns added.</b> {@link #openOrCreate(Path, JournalSchema, JournalRollCycle)} with a schema that
 * {@link JournalSchema#extend extends} the journal's adds its new columns: under the journal's events lock (no
 * appender runs meanwhile), the marker is replaced atomically and forced to disk before any event with the new
 * columns can be appended. {@link #schemaHistory()} lists each generation.
 * <p>
 * <b>Marker.</b> Lines of {@code key=value}, UTF-8: {@value #FORMAT_LINE}, {@code version=N}, {@code id=UUID},
 * {@code schema=COLUMNS} (the columns it was created with; absent for {@link JournalSchema#DEFAULT}),
 * {@code roll-cycle=NAME} (absent for daily). A journal that never gained columns has version 2, byte for byte
 * as before columns could be added, so an older Weir still opens it. The first time a journal gains columns its
 * marker becomes version 3: the same lines, then one line per generation from 2 on, in order:
 * {@code added=G at=INSTANT columns=COLUMNS} (the generation, the UTC time it was added in ISO-8601, and the
 * columns it added with their defaults, as {@link JournalSchema#toString()} writes them). A Weir that reads only
 * version 2 refuses it by its version. A journal that holds reference tables ({@link TableDefinition}) has a
 * version 4 marker: the lines above, then one line per table, in the order they were added (a table's index):
 * {@code table=NAME key=K1,K2 columns=SPEC} ({@link TableDefinition#text()}). A journal made by a table's ingest
 * before any event has the line {@code events=pending} instead of a {@code schema=} line ({@link #eventsPending()}),
 * until {@link #openOrCreate(Path, JournalSchema, JournalRollCycle)} with a schema fixes its events' columns. A Weir
 * that reads only versions 2 and 3 refuses it by its version. This build reads versions 2, 3 and 4 and refuses a
 * newer one with {@link NewerFormatException}.
 * <p>
 * <b>Tables.</b> {@link #openOrCreateForTable} adds a table under the journal's events lock (as columns are added):
 * the marker is replaced atomically, forced to disk, and a table once added stays. The same table given again with
 * the same definition ({@link TableDefinition#sameAs}) is accepted; with another, refused.
 * <p>
 * Immutable and thread-safe.
 */
public final class JournalDirectory
{
    /** Name of the marker file that makes a directory a Weir journal. */
    public static final String MARKER_FILE = "weir-journal";
    /** The format this build writes and reads. */
    public static final String FORMAT_LINE = "format=weir-journal";
    /** The format version this build writes for a journal that never gained columns (and reads). */
    public static final int FORMAT_VERSION = 2;
    /** The format version of the marker of a journal that gained columns (and no table). */
    public static final int FORMAT_VERSION_ADDED_COLUMNS = 3;
    /** The format version of the marker of a journal that holds tables (and single-record documents). */
    public static final int FORMAT_VERSION_TABLES = 4;
    /**
     * The format version of the marker of a journal whose documents may hold several records, with slotted offsets
     * ({@link JournalOffsets#SLOTTED}), whatever columns and tables it holds: the newest this build reads.
     */
    public static final int FORMAT_VERSION_BATCHED = 5;

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
    private static final String ADDED_PREFIX = "added=";
    private static final String AT_PART = " at=";
    private static final String COLUMNS_PART = " columns=";
    private static final String TABLE_PREFIX = "table=";
    private static final String EVENTS_PENDING = "events=pending";
    /**
     * Whether a new journal is created with batched documents (marker version {@value #FORMAT_VERSION_BATCHED}): every
     * reader and writer of both queues speaks slotted offsets (issue 34).
     */
    private static final boolean CREATE_BATCHED = true;
    /** How long adding columns waits for an occasional appender (a heartbeat) to let go of the events lock. */
    private static final long LOCK_PATIENCE_NANOS = 2_000_000_000L;

    /**
     * One generation of a journal's columns.
     *
     * @param number  1 for the columns the journal was created with, then 2, 3, ... for each time it gained columns.
     * @param schema  the journal's columns after it.
     * @param added   the columns it added (for generation 1, those it was created with).
     * @param at      when it was added (the wall clock of the machine that added it), or null for generation 1:
     *                the creation time is not recorded.
     */
    public record Generation(int number, JournalSchema schema, List<JournalSchema.Column> added, java.time.Instant at)
    {
    }

    private final Path root;
    private final String journalId;
    private final JournalSchema schema;
    private final String pipelineName;
    private final Path pipelineRoot;
    private final JournalRollCycle rollCycle;
    private final List<Generation> history;
    private final List<TableDefinition> tables;
    private final boolean eventsPending;
    private final JournalOffsets offsets;

    private JournalDirectory(
        final Path root, final String journalId, final List<Generation> history, final JournalRollCycle rollCycle,
        final JournalOffsets offsets)
    {
        this(root, journalId, history, rollCycle, List.of(), false, DEFAULT_PIPELINE, root, offsets);
    }

    private JournalDirectory(
        final Path root, final String journalId, final List<Generation> history, final JournalRollCycle rollCycle,
        final List<TableDefinition> tables, final boolean eventsPending, final String pipelineName, final Path pipelineRoot,
        final JournalOffsets offsets)
    {
        this.offsets = offsets;
        this.root = root;
        this.journalId = journalId;
        this.history = history;
        this.tables = List.copyOf(tables);
        this.eventsPending = eventsPending;
        this.schema = history.get(history.size() - 1).schema();
        this.rollCycle = rollCycle;
        this.pipelineName = pipelineName;
        this.pipelineRoot = pipelineRoot;
    }

    private static List<Generation> created(final JournalSchema schema)
    {
        return List.of(new Generation(1, schema, schema.columns(), null));
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
            return pipelineName.equals(name) ? this : new JournalDirectory(root, journalId, history, rollCycle, tables, eventsPending, name, root, offsets);
        }
        return pipelineName.equals(name)
            ? this
            : new JournalDirectory(root, journalId, history, rollCycle, tables, eventsPending, name,
                root.resolve(PIPELINES_DIRECTORY).resolve(name), offsets);
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
     *                  is (and {@link JournalSchema#DEFAULT} for a new one); an existing journal gains the
     *                  columns it adds, as {@link #openOrCreate(Path, JournalSchema, JournalRollCycle)} says.
     * @return the journal directory.
     * @throws JournalRefusedException if the directory exists, is not empty and is not a Weir journal of
     *                                 this format version, or is one whose schema differs otherwise (both are named).
     * @throws JvmFlagsMissingException if this JVM lacks flags Chronicle needs ({@link JvmFlags}).
     */
    public static JournalDirectory openOrCreate(final Path directory, final JournalSchema schema)
    {
        return openOrCreate(directory, schema, null);
    }

    /**
     * Open an existing journal of a given schema and roll cycle, or create one with them in a directory that is
     * missing or empty.
     * <p>
     * If the journal exists and {@code schema} is its columns followed by new ones, each with a default
     * ({@link JournalSchema#extend}), the journal gains them: its marker is replaced atomically and forced to disk,
     * under its events lock (refused if an appender holds it), and the directory returned has the new schema;
     * earlier events read the defaults. A new journal drops the defaults it is given.
     *
     * @param directory where the journal lives.
     * @param schema    the schema its events must have, or null to take an existing journal's whatever it
     *                  is (and {@link JournalSchema#DEFAULT} for a new one).
     * @param rollCycle the roll cycle it must have, or null to take an existing journal's whatever it is (and
     *                  {@link JournalRollCycle#DEFAULT} for a new one).
     * @return the journal directory.
     * @throws JournalRefusedException if the directory exists, is not empty and is not a Weir journal of
     *                                 a format version this build reads, or is one whose roll cycle differs, or whose
     *                                 schema differs other than by new columns with defaults (both are named, and
     *                                 the rule), or an appender holds it while columns are to be added.
     * @throws NewerFormatException if it is a journal of a newer format version.
     * @throws JvmFlagsMissingException if this JVM lacks flags Chronicle needs ({@link JvmFlags}).
     */
    public static JournalDirectory openOrCreate(final Path directory, final JournalSchema schema, final JournalRollCycle rollCycle)
    {
        JvmFlags.prepare();
        final Path root = directory.toAbsolutePath().normalize();
        if (Files.isRegularFile(root.resolve(MARKER_FILE)))
        {
            final JournalDirectory existing = open(root);
            existing.checkRollCycle(rollCycle);
            if (schema != null && existing.eventsPending)
            {
                return existing.fixEvents(schema);
            }
            if (schema == null || existing.checkColumns(schema))
            {
                return existing;
            }
            return existing.addColumns(schema);
        }
        return create(root, schema == null ? JournalSchema.DEFAULT : schema, rollCycle == null ? JournalRollCycle.DEFAULT : rollCycle);
    }

    /**
     * @return true if {@code wanted} has exactly this journal's columns, false if it adds columns to them.
     * @throws JournalRefusedException if it differs otherwise.
     */
    private boolean checkColumns(final JournalSchema wanted)
    {
        try
        {
            if (schema.sameColumns(wanted))
            {
                return true;
            }
            schema.extend(wanted);
            return false;
        }
        catch (final IllegalArgumentException ex)
        {
            throw new JournalRefusedException(root, "its events have the columns " + schema + ", not " + wanted + ": " + ex.getMessage());
        }
    }

    /**
     * Add the columns {@code wanted} adds to this journal's: under the events lock, read the marker again, check,
     * and replace it (forced to disk) with one that records the new generation.
     *
     * @return the journal with its new schema.
     */
    private JournalDirectory addColumns(final JournalSchema wanted)
    {
        try (AppendLock lock = lockForChange())
        {
            final JournalDirectory current = open(root);
            if (current.checkColumns(wanted))
            {
                return current; // another process added them meanwhile
            }
            final JournalSchema extended = current.schema.extend(wanted);
            final Path marker = root.resolve(MARKER_FILE);
            final List<String> lines = new java.util.ArrayList<>(Files.readAllLines(marker, StandardCharsets.UTF_8));
            lines.set(1, VERSION_PREFIX + (current.offsets.batched() ? FORMAT_VERSION_BATCHED
                : current.tables.isEmpty() ? FORMAT_VERSION_ADDED_COLUMNS : FORMAT_VERSION_TABLES));
            final StringBuilder added = new StringBuilder();
            for (int c = current.schema.size(); c < extended.size(); c++)
            {
                added.append(added.length() == 0 ? "" : ",").append(extended.column(c));
            }
            lines.add(firstTableLine(lines), ADDED_PREFIX + extended.generation() + AT_PART + java.time.Instant.now() + COLUMNS_PART + added);
            replaceMarker(marker, lines);
            final JournalDirectory result = open(root);
            if (!result.schema.equals(extended) || result.schema.generation() != extended.generation())
            {
                throw new IllegalStateException("journal " + root + ": its marker reads " + result.schema + " after adding columns, not " + extended);
            }
            return result;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot add columns to journal " + root, ex);
        }
    }

    /** @return where a line goes that must come before the tables' lines: the index of the first, or the end. */
    private static int firstTableLine(final List<String> lines)
    {
        for (int i = 0; i < lines.size(); i++)
        {
            if (lines.get(i).startsWith(TABLE_PREFIX))
            {
                return i;
            }
        }
        return lines.size();
    }

    private static void replaceMarker(final Path marker, final List<String> lines) throws IOException
    {
        FileReplacement.replace(marker, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8), true);
    }

    /**
     * Fix the events' columns of a journal made by a table's ingest: under the events lock, read the marker again
     * and replace its {@code events=pending} line with the schema (none for the default), forced to disk.
     *
     * @return the journal with its events' columns.
     */
    private JournalDirectory fixEvents(final JournalSchema wanted)
    {
        try (AppendLock lock = lockForChange())
        {
            final JournalDirectory current = open(root);
            if (!current.eventsPending)
            {
                return current.checkColumns(wanted) ? current : current.addColumns(wanted); // another process fixed them meanwhile
            }
            final JournalSchema columns = wanted.withoutDefaults();
            final Path marker = root.resolve(MARKER_FILE);
            final List<String> lines = new java.util.ArrayList<>(Files.readAllLines(marker, StandardCharsets.UTF_8));
            final int pending = lines.indexOf(EVENTS_PENDING);
            if (columns.isDefault())
            {
                lines.remove(pending);
            }
            else
            {
                lines.set(pending, SCHEMA_PREFIX + columns);
            }
            replaceMarker(marker, lines);
            final JournalDirectory result = open(root);
            if (result.eventsPending || !result.schema.equals(columns))
            {
                throw new IllegalStateException("journal " + root + ": its marker reads " + result.schema + " after fixing its events' columns, not " + columns);
            }
            return result;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot fix the events' columns of journal " + root, ex);
        }
    }

    /**
     * Open an existing journal and add a reference table to it if it lacks it, or create a journal that holds only
     * the table, its events pending ({@link #eventsPending()}), in a directory that is missing or empty. A table is
     * added under the journal's events lock (refused if an appender holds it): its marker becomes version
     * {@value #FORMAT_VERSION_TABLES} (its other lines kept), gains the table's line, and is replaced atomically and
     * forced to disk.
     *
     * @param directory where the journal lives.
     * @param table     the table.
     * @param rollCycle the roll cycle it must have, or null to take an existing journal's whatever it is (and
     *                  {@link JournalRollCycle#DEFAULT} for a new one).
     * @return the journal directory, the table among its {@link #tables()}.
     * @throws JournalRefusedException if the directory is not a Weir journal this build reads, its roll cycle
     *                                 differs, it has a table of that name with another definition (both named),
     *                                 it has {@value TableDefinition#MAX_TABLES} tables, or an appender holds it.
     * @throws NewerFormatException if it is a journal of a newer format version.
     * @throws JvmFlagsMissingException if this JVM lacks flags Chronicle needs ({@link JvmFlags}).
     */
    public static JournalDirectory openOrCreateForTable(final Path directory, final TableDefinition table, final JournalRollCycle rollCycle)
    {
        JvmFlags.prepare();
        final Path root = directory.toAbsolutePath().normalize();
        if (!Files.isRegularFile(root.resolve(MARKER_FILE)))
        {
            create(root, null, table, rollCycle == null ? JournalRollCycle.DEFAULT : rollCycle);
        }
        final JournalDirectory existing = open(root);
        existing.checkRollCycle(rollCycle);
        return existing.checkTable(table) ? existing : existing.addTable(table);
    }

    /**
     * @return true if this journal has the table, false if it has none of its name.
     * @throws JournalRefusedException if it has one of its name with another definition.
     */
    private boolean checkTable(final TableDefinition wanted)
    {
        final TableDefinition held = table(wanted.name());
        if (held == null)
        {
            return false;
        }
        if (!held.sameAs(wanted))
        {
            throw new JournalRefusedException(root, "table " + held.name() + " exists with key " + String.join(",", held.key())
                + " and columns " + held.columns() + "; this ingest gave key " + String.join(",", wanted.key()) + " and columns "
                + wanted.columns());
        }
        return true;
    }

    private JournalDirectory addTable(final TableDefinition wanted)
    {
        try (AppendLock lock = lockForChange())
        {
            final JournalDirectory current = open(root);
            if (current.checkTable(wanted))
            {
                return current; // another process added it meanwhile
            }
            if (current.tables.size() >= TableDefinition.MAX_TABLES)
            {
                throw new JournalRefusedException(root, "it holds " + TableDefinition.MAX_TABLES + " tables, the most a journal holds; "
                    + "table " + wanted.name() + " cannot be added");
            }
            final Path marker = root.resolve(MARKER_FILE);
            final List<String> lines = new java.util.ArrayList<>(Files.readAllLines(marker, StandardCharsets.UTF_8));
            lines.set(1, VERSION_PREFIX + (current.offsets.batched() ? FORMAT_VERSION_BATCHED : FORMAT_VERSION_TABLES));
            lines.add(TABLE_PREFIX + wanted.text());
            replaceMarker(marker, lines);
            final JournalDirectory result = open(root);
            if (!result.checkTable(wanted))
            {
                throw new IllegalStateException("journal " + root + ": its marker lacks table " + wanted.name() + " after adding it");
            }
            return result;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot add table " + wanted.name() + " to journal " + root, ex);
        }
    }

    /**
     * @return the events lock, waiting a little for an occasional appender (a following pipeline's heartbeat) to let go.
     * @throws JournalRefusedException if an appender holds it.
     */
    private AppendLock lockForChange()
    {
        final long deadline = System.nanoTime() + LOCK_PATIENCE_NANOS;
        while (System.nanoTime() - deadline < 0)
        {
            final AppendLock lock = AppendLock.tryAcquire(root, "events");
            if (lock != null)
            {
                return lock;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
        }
        return AppendLock.acquire(this, root, "events");
    }

    /**
     * @return this journal as its marker says now: this if it gained no columns since it was opened, else the view
     *         of the same pipeline with its new schema.
     */
    JournalDirectory latest()
    {
        final JournalDirectory now = open(root);
        return now.schema.generation() == schema.generation() && now.tables.size() == tables.size() && now.eventsPending == eventsPending
            ? this
            : now.pipeline(pipelineName);
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
     * recorded in the marker (a default journal's marker stays as it was before schemas existed); defaults given
     * on its columns are dropped ({@link JournalSchema#withoutDefaults()}): every event carries every column.
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
     * @param columns   the columns of its events (defaults on them are dropped).
     * @param rollCycle how long each file of its queues covers; fixed for the journal's life.
     * @return the journal directory.
     * @throws JournalRefusedException if the path is a file, or a directory that is not empty.
     * @throws JvmFlagsMissingException if this JVM lacks flags Chronicle needs ({@link JvmFlags}).
     */
    public static JournalDirectory create(final Path directory, final JournalSchema columns, final JournalRollCycle rollCycle)
    {
        JvmFlags.prepare();
        final Path root = directory.toAbsolutePath().normalize();
        create(root, columns.withoutDefaults(), null, rollCycle);
        return open(root);
    }

    /**
     * Create a journal at an absolute root: of a schema, or (schema null) with its events pending and one table.
     */
    private static void create(final Path root, final JournalSchema schema, final TableDefinition table, final JournalRollCycle rollCycle)
    {
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
            final List<String> marker = new java.util.ArrayList<>(List.of(FORMAT_LINE,
                VERSION_PREFIX + (CREATE_BATCHED ? FORMAT_VERSION_BATCHED : table == null ? FORMAT_VERSION : FORMAT_VERSION_TABLES),
                ID_PREFIX + id));
            if (schema == null)
            {
                marker.add(EVENTS_PENDING);
            }
            else if (!schema.isDefault())
            {
                marker.add(SCHEMA_PREFIX + schema);
            }
            if (rollCycle != JournalRollCycle.DEFAULT)
            {
                marker.add(ROLL_CYCLE_PREFIX + rollCycle.cliName()); // a daily journal's marker stays as it was before roll cycles
            }
            if (table != null)
            {
                marker.add(TABLE_PREFIX + table.text());
            }
            Files.write(staging.resolve(MARKER_FILE), marker, StandardCharsets.UTF_8);
            final JournalDirectory staged = new JournalDirectory(staging, id, created(schema == null ? JournalSchema.DEFAULT : schema), rollCycle,
                CREATE_BATCHED ? JournalOffsets.SLOTTED : JournalOffsets.INDEXED);
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
     * @throws JournalRefusedException if it is missing, or is not a Weir journal of a format version this build reads.
     * @throws NewerFormatException if it is a journal of a newer format version.
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
        final int number = version.matches("[0-9]{1,9}") ? Integer.parseInt(version) : -1;
        if (number > FORMAT_VERSION_BATCHED)
        {
            throw new NewerFormatException("journal marker", marker, number, FORMAT_VERSION_BATCHED);
        }
        if (number != FORMAT_VERSION && number != FORMAT_VERSION_ADDED_COLUMNS && number != FORMAT_VERSION_TABLES
            && number != FORMAT_VERSION_BATCHED)
        {
            throw new JournalRefusedException(root, "it is journal format version " + version + ", this build reads versions "
                + FORMAT_VERSION + ", " + FORMAT_VERSION_ADDED_COLUMNS + ", " + FORMAT_VERSION_TABLES + " and " + FORMAT_VERSION_BATCHED);
        }
        final String id = lines.size() > 2 && lines.get(2).startsWith(ID_PREFIX)
            ? lines.get(2).substring(ID_PREFIX.length()).trim()
            : "path:" + root; // journals made before ids were written
        JournalSchema schema = JournalSchema.DEFAULT; // journals made before schemas, and default ones
        JournalRollCycle rollCycle = JournalRollCycle.DEFAULT; // journals made before roll cycles were recorded
        final List<String> added = new java.util.ArrayList<>();
        final List<TableDefinition> tables = new java.util.ArrayList<>();
        boolean pending = false;
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
            else if (line.startsWith(ADDED_PREFIX))
            {
                if (number == FORMAT_VERSION)
                {
                    throw new JournalRefusedException(root, "its version " + FORMAT_VERSION + " marker records added columns");
                }
                added.add(line);
            }
            else if (line.startsWith(TABLE_PREFIX) || line.equals(EVENTS_PENDING))
            {
                if (number != FORMAT_VERSION_TABLES && number != FORMAT_VERSION_BATCHED)
                {
                    throw new JournalRefusedException(root, "its version " + number + " marker records tables");
                }
                if (line.equals(EVENTS_PENDING))
                {
                    pending = true;
                }
                else
                {
                    tables.add(table(root, line.substring(TABLE_PREFIX.length()), tables));
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
        if (number == FORMAT_VERSION_TABLES && tables.isEmpty())
        {
            throw new JournalRefusedException(root, "its version " + FORMAT_VERSION_TABLES + " marker records no table");
        }
        return new JournalDirectory(root, id, history(root, schema, added), rollCycle, tables, pending, DEFAULT_PIPELINE, root,
            number == FORMAT_VERSION_BATCHED ? JournalOffsets.SLOTTED : JournalOffsets.INDEXED);
    }

    /** @return the table a marker's {@code table=} line defines, checked against those before it. */
    private static TableDefinition table(final Path root, final String text, final List<TableDefinition> before)
    {
        final TableDefinition table;
        try
        {
            table = TableDefinition.fromText(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new JournalRefusedException(root, "its marker's table line '" + text + "' cannot be read (" + ex.getMessage() + ")", ex);
        }
        for (final TableDefinition other : before)
        {
            if (other.name().equals(table.name()))
            {
                throw new JournalRefusedException(root, "its marker defines table " + table.name() + " twice");
            }
        }
        if (before.size() >= TableDefinition.MAX_TABLES)
        {
            throw new JournalRefusedException(root, "its marker defines more than " + TableDefinition.MAX_TABLES + " tables");
        }
        return table;
    }

    /** @return the generations a marker records: its schema, then each {@code added=} line, in order. */
    private static List<Generation> history(final Path root, final JournalSchema created, final List<String> added)
    {
        final List<Generation> history = new java.util.ArrayList<>(created(created));
        JournalSchema schema = created;
        for (final String line : added)
        {
            final int at = line.indexOf(AT_PART);
            final int columns = line.indexOf(COLUMNS_PART);
            try
            {
                if (at < 0 || columns < at)
                {
                    throw new IllegalArgumentException("it is not added=G at=TIME columns=COLUMNS");
                }
                final int number = Integer.parseInt(line.substring(ADDED_PREFIX.length(), at));
                if (number != schema.generation() + 1)
                {
                    throw new IllegalArgumentException("generation " + number + " follows generation " + schema.generation());
                }
                final java.time.Instant when = java.time.Instant.parse(line.substring(at + AT_PART.length(), columns));
                schema = schema.extend(JournalSchema.parse(schema + "," + line.substring(columns + COLUMNS_PART.length())));
                history.add(new Generation(number, schema, schema.columns().subList(history.get(history.size() - 1).schema().size(),
                    schema.size()), when));
            }
            catch (final RuntimeException ex)
            {
                throw new JournalRefusedException(root, "its marker's line '" + line + "' cannot be read (" + ex.getMessage() + ")", ex);
            }
        }
        return List.copyOf(history);
    }

    /**
     * @return the version of the journal's marker: {@value #FORMAT_VERSION}, or {@value #FORMAT_VERSION_ADDED_COLUMNS}
     *         once it gained columns, or {@value #FORMAT_VERSION_TABLES} once it holds a table (as of when this was opened).
     */
    public int formatVersion()
    {
        return offsets.batched() ? FORMAT_VERSION_BATCHED
            : !tables.isEmpty() ? FORMAT_VERSION_TABLES : history.size() > 1 ? FORMAT_VERSION_ADDED_COLUMNS : FORMAT_VERSION;
    }

    /**
     * @return how the offsets of this journal's queues map to their documents: {@link JournalOffsets#SLOTTED} for a
     *         journal of marker version {@value #FORMAT_VERSION_BATCHED}, else {@link JournalOffsets#INDEXED}.
     */
    public JournalOffsets offsets()
    {
        return offsets;
    }

    /**
     * @return the journal's reference tables, in the order they were added (a table row's table index is its
     *         position here), as its marker recorded them when this was opened; empty if it has none.
     */
    public List<TableDefinition> tables()
    {
        return tables;
    }

    /**
     * @param name a table's name.
     * @return the table of that name, or null if the journal has none (as of when this was opened).
     */
    public TableDefinition table(final String name)
    {
        for (final TableDefinition table : tables)
        {
            if (table.name().equals(name))
            {
                return table;
            }
        }
        return null;
    }

    /**
     * @return true if the journal was made by a table's ingest and its events' columns are not fixed yet (its
     *         {@link #schema()} is then {@link JournalSchema#DEFAULT}, and no event may be appended).
     */
    public boolean eventsPending()
    {
        return eventsPending;
    }

    /**
     * @return the generations of the journal's columns, oldest first: generation 1 (the columns it was created
     *         with), then one for each time it gained columns, as its marker recorded them when this was opened.
     */
    public List<Generation> schemaHistory()
    {
        return history;
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
     * @return the columns of the journal's events: those it was created with, and those it gained since (as of when
     *         this was opened).
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
