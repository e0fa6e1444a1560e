package dev.weir.journal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The JVM flags Chronicle Queue needs on Java 17 and later, and the check that this JVM was started with them.
 * <p>
 * Chronicle Queue, which keeps Weir's journal, reaches into JDK packages: without these flags it fails with an
 * {@code IllegalAccessException} deep inside a queue, or quietly opens a queue read-only. Weir checks first,
 * by asking the runtime ({@link Module#isOpen(String, Module)} and {@link Module#isExported(String, Module)} of
 * each package to the module Chronicle is in), whenever it opens a journal or builds a pipeline, and throws
 * {@link JvmFlagsMissingException} naming what is missing, before anything is written. The flags can come from
 * the command line, {@code JDK_JAVA_OPTIONS}, or the {@code Add-Opens}/{@code Add-Exports} entries of an
 * executable jar's manifest: the check sees the result, not where it came from.
 * <p>
 * This list and the parent pom's {@code weir.jvm.opens} property (Surefire's {@code argLine}, the
 * {@code weir} launcher's {@code weir.jvmopts}) are the same; a test keeps them so. A flag whose module this
 * runtime does not have (a {@code jlink}ed image without {@code jdk.compiler}) is not required. Two are granted
 * whether given or not ({@code jdk.unsupported/sun.misc} is exported to everyone, and the opening of
 * {@code java.base/sun.nio.ch} exports it too): they stay in the list, which is what the build passes.
 * <p>
 * Stateless and thread-safe.
 */
public final class JvmFlags
{
    /** The flags, as a {@code java} command line takes them. */
    public static final List<String> REQUIRED = List.of(
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
        "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-opens=java.base/java.io=ALL-UNNAMED",
        "--add-opens=java.base/java.util=ALL-UNNAMED",
        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED",
        "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED");

    /** The system property that stops Chronicle's usage analytics; Weir sets it to {@code true} unless it is set. */
    public static final String ANALYTICS_PROPERTY = "chronicle.analytics.disable";

    /**
     * The system property that stops Chronicle's start-up banner ("Leave your e-mail ..."); Weir sets it to
     * {@code true} unless it is set.
     */
    public static final String ANNOUNCER_PROPERTY = "chronicle.announcer.disable";

    /**
     * The system property that bounds how long Chronicle waits for the operating-system lock on a queue's
     * {@code metadata.cq4t} (read once, when Chronicle's table store class is loaded). Every open of a queue takes that
     * lock for the few milliseconds of a metadata update; its holder is always a live process (the operating system
     * releases it when its holder dies, kill -9 included), so waiting is always safe. Chronicle gives up after 10 s by
     * default, which a loaded machine can exceed: Weir sets it to {@value #TABLE_STORE_TIMEOUT_MS} ms unless it is set.
     */
    public static final String TABLE_STORE_TIMEOUT_PROPERTY = "chronicle.table.store.timeoutMS";

    /** How long, in milliseconds, Weir lets Chronicle wait for a queue's metadata lock unless the user chose. */
    public static final long TABLE_STORE_TIMEOUT_MS = 120_000;

    private static final String OPENS = "--add-opens=";
    private static final String EXPORTS = "--add-exports=";
    private static final String CHRONICLE_CLASS = "net.openhft.chronicle.core.Jvm";

    private JvmFlags()
    {
    }

    /**
     * @return the flags of {@link #REQUIRED} this JVM lacks, in that order; empty when it has them all.
     */
    public static List<String> missing()
    {
        final Module chronicle = chronicleModule();
        final List<String> missing = new ArrayList<>();
        for (final String flag : REQUIRED)
        {
            final boolean opens = flag.startsWith(OPENS);
            final String spec = flag.substring(opens ? OPENS.length() : EXPORTS.length()); // module/package=target
            final int slash = spec.indexOf('/');
            final int equals = spec.indexOf('=');
            assert slash > 0 && equals > slash : flag;
            final Optional<Module> module = ModuleLayer.boot().findModule(spec.substring(0, slash));
            if (module.isEmpty())
            {
                continue; // not in this runtime: nothing can reach it, with or without the flag
            }
            final String pkg = spec.substring(slash + 1, equals);
            final boolean granted = opens ? module.get().isOpen(pkg, chronicle) : module.get().isExported(pkg, chronicle);
            if (!granted)
            {
                missing.add(flag);
            }
        }
        return missing;
    }

    /**
     * Throw unless this JVM has every flag of {@link #REQUIRED}.
     *
     * @throws JvmFlagsMissingException naming the missing flags and the line to add.
     */
    public static void check()
    {
        final List<String> missing = missing();
        if (!missing.isEmpty())
        {
            throw new JvmFlagsMissingException(missing);
        }
    }

    /**
     * What Weir does before it first touches Chronicle: set {@value #ANALYTICS_PROPERTY} and
     * {@value #ANNOUNCER_PROPERTY} to {@code true}, each unless it is set already (so an embedding service sends
     * no Chronicle usage analytics and its log shows no Chronicle banner), and {@value #TABLE_STORE_TIMEOUT_PROPERTY}
     * to {@value #TABLE_STORE_TIMEOUT_MS} unless it is set already (so a queue opened while another process or thread
     * holds its metadata lock on a loaded machine waits for it instead of failing after Chronicle's 10 s), then
     * {@link #check()}.
     *
     * @throws JvmFlagsMissingException naming the missing flags and the line to add.
     */
    public static void prepare()
    {
        for (final String quiet : new String[] {ANALYTICS_PROPERTY, ANNOUNCER_PROPERTY})
        {
            if (System.getProperty(quiet) == null)
            {
                System.setProperty(quiet, "true");
            }
        }
        if (System.getProperty(TABLE_STORE_TIMEOUT_PROPERTY) == null)
        {
            System.setProperty(TABLE_STORE_TIMEOUT_PROPERTY, Long.toString(TABLE_STORE_TIMEOUT_MS));
        }
        check();
    }

    /**
     * @param flags flags, as a {@code java} command line takes them.
     * @return them as a {@code java} command line's options, space-separated.
     */
    public static String javaOptions(final List<String> flags)
    {
        return String.join(" ", flags);
    }

    /**
     * @param flags flags, as a {@code java} command line takes them.
     * @return the Maven Surefire (and Failsafe) configuration element that passes them to the test JVM.
     */
    public static String surefireArgLine(final List<String> flags)
    {
        return "<argLine>" + String.join(" ", flags) + "</argLine>";
    }

    /**
     * @param flags flags, as a {@code java} command line takes them.
     * @return the Gradle call that passes them to a {@code test} or {@code run} task's JVM (Groovy and Kotlin DSL).
     */
    public static String gradleJvmArgs(final List<String> flags)
    {
        final StringBuilder line = new StringBuilder("jvmArgs(");
        for (int i = 0; i < flags.size(); i++)
        {
            line.append(i == 0 ? "" : ", ").append('"').append(flags.get(i)).append('"');
        }
        return line.append(')').toString();
    }

    static String explain(final List<String> missing)
    {
        return "this JVM was started without " + missing.size() + " of the " + REQUIRED.size()
            + " flags Chronicle Queue needs for Weir's journal (without them it fails, or opens queues read-only): "
            + String.join(" ", missing) + System.lineSeparator()
            + "  add them to the JVM's command line; the line to add:" + System.lineSeparator()
            + "  java:           java " + javaOptions(missing) + " ..." + System.lineSeparator()
            + "  Maven Surefire: " + surefireArgLine(missing) + System.lineSeparator()
            + "  Gradle:         " + gradleJvmArgs(missing) + System.lineSeparator()
            + "  (all of Weir's flags: dev.weir.journal.JvmFlags.REQUIRED, and docs/java-api.md, \"The JVM flags\")";
    }

    private static Module chronicleModule()
    {
        try
        {
            return Class.forName(CHRONICLE_CLASS, false, JvmFlags.class.getClassLoader()).getModule(); // not initialised
        }
        catch (final ClassNotFoundException ex)
        {
            return JvmFlags.class.getModule();
        }
    }
}
