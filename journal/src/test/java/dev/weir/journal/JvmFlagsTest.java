package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM check: a child JVM started without the flags Chronicle needs is refused before anything is written,
 * with a message naming the missing flags and the line to add; one started with them opens journals and has
 * Chronicle's analytics off though it did not set the property. The list in code is the one the build passes.
 */
@Tag("slow")
class JvmFlagsTest
{
    /**
     * What a JVM without any flag lacks: all but {@code jdk.unsupported/sun.misc}, which the JDK exports to
     * everyone (the flag stays in the list, as the build passes it).
     */
    private static final List<String> WITHOUT_FLAGS = JvmFlags.REQUIRED.stream()
        .filter(flag -> !flag.equals("--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED")).collect(Collectors.toList());

    @TempDir
    Path dir;

    @Test
    void theListIsTheOneTheBuildPassesAndThisJvmHasThemAll()
    {
        final Set<String> given = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(arg -> arg.startsWith("--add-opens=") || arg.startsWith("--add-exports="))
            .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(given, new TreeSet<>(JvmFlags.REQUIRED), "the parent pom's weir.jvm.opens (Surefire's argLine) and JvmFlags.REQUIRED");
        assertEquals(JvmFlags.REQUIRED.size(), Set.copyOf(JvmFlags.REQUIRED).size(), "no flag twice");
        assertEquals(List.of(), JvmFlags.missing());
        JvmFlags.check();
    }

    @Test
    void aJvmWithoutTheFlagsCreatesNothing() throws Exception
    {
        final Path journal = dir.resolve("new-journal");
        for (final String mode : List.of("create", "openOrCreate"))
        {
            final Child child = run(List.of(), mode, journal);
            assertEquals(JvmCheckChild.REFUSED, child.exit, mode + ": " + child.output);
            assertRefusalNames(WITHOUT_FLAGS, child.output);
            assertFalse(Files.exists(journal), mode + " created the journal");
            try (Stream<Path> files = Files.list(dir))
            {
                assertEquals(List.of(), files.collect(Collectors.toList()), mode + " wrote beside it (staging)");
            }
        }
    }

    @Test
    void aJvmWithoutTheFlagsLeavesAnExistingJournalAsItWas() throws Exception
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            events.append(1, 10, "card-1", 5);
        }
        final List<String> before = tree(journal);
        final Child child = run(List.of(), "open", journal);
        assertEquals(JvmCheckChild.REFUSED, child.exit, child.output);
        assertRefusalNames(WITHOUT_FLAGS, child.output);
        assertEquals(before, tree(journal), "files, sizes and times");
    }

    @Test
    void oneMissingFlagIsTheOneNamed() throws Exception
    {
        final String dropped = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
        final List<String> flags = new ArrayList<>(JvmFlags.REQUIRED);
        assertTrue(flags.remove(dropped));
        final Child child = run(flags, "create", dir.resolve("journal"));
        assertEquals(JvmCheckChild.REFUSED, child.exit, child.output);
        assertRefusalNames(List.of(dropped), child.output);
        assertTrue(child.output.contains("without 1 of the " + JvmFlags.REQUIRED.size() + " flags"), child.output);
        for (final String present : flags)
        {
            assertFalse(child.output.contains(present), "names a flag it has: " + present + "\n" + child.output);
        }
        assertFalse(Files.exists(dir.resolve("journal")));
    }

    @Test
    void openingAJournalTurnsChronicleAnalyticsOffUnlessTheUserChose() throws Exception
    {
        final Child unset = run(JvmFlags.REQUIRED, "openOrCreate", dir.resolve("a"));
        assertEquals(0, unset.exit, unset.output);
        assertTrue(unset.output.contains("opened analytics=true"), unset.output);

        final List<String> chosen = new ArrayList<>(JvmFlags.REQUIRED);
        chosen.add("-D" + JvmFlags.ANALYTICS_PROPERTY + "=false");
        final Child kept = run(chosen, "openOrCreate", dir.resolve("b"));
        assertEquals(0, kept.exit, kept.output);
        assertTrue(kept.output.contains("opened analytics=false"), kept.output);
    }

    @Test
    void openingAJournalLetsChronicleWaitTwoMinutesForAQueuesMetadataLockUnlessTheUserChose() throws Exception
    {
        final Child unset = run(JvmFlags.REQUIRED, "openOrCreate", dir.resolve("a"));
        assertEquals(0, unset.exit, unset.output);
        assertTrue(unset.output.contains("tableStoreTimeoutMS=120000"), unset.output);

        final List<String> chosen = new ArrayList<>(JvmFlags.REQUIRED);
        chosen.add("-D" + JvmFlags.TABLE_STORE_TIMEOUT_PROPERTY + "=5000");
        final Child kept = run(chosen, "openOrCreate", dir.resolve("b"));
        assertEquals(0, kept.exit, kept.output);
        assertTrue(kept.output.contains("tableStoreTimeoutMS=5000"), kept.output);
    }

    @Test
    void openingAJournalPrintsNoChronicleBanner() throws Exception
    {
        final Child child = run(JvmFlags.REQUIRED, "openOrCreate", dir.resolve("quiet"));
        assertEquals(0, child.exit, child.output);
        assertFalse(child.output.contains("e-mail"), "Chronicle's announcer printed its banner:\n" + child.output);
        assertFalse(child.output.contains("release-notes"), child.output);
        assertTrue(child.output.contains("opened analytics=true announcer=true"), child.output);
    }

    private static void assertRefusalNames(final List<String> missing, final String output)
    {
        assertTrue(output.contains("refused:this JVM was started without " + missing.size() + " of the "), output);
        final String javaLine = "java:           java " + String.join(" ", missing) + " ...";
        assertTrue(output.contains(javaLine), "the java line: " + javaLine + "\n" + output);
        assertTrue(output.contains("Maven Surefire: <argLine>" + String.join(" ", missing) + "</argLine>"), output);
        assertTrue(output.contains("Gradle:         jvmArgs(\"" + String.join("\", \"", missing) + "\")"), output);
    }

    private static List<String> tree(final Path root) throws IOException
    {
        try (Stream<Path> files = Files.walk(root))
        {
            final List<String> entries = new ArrayList<>();
            for (final Path file : (Iterable<Path>)files.sorted()::iterator)
            {
                entries.add(root.relativize(file) + " " + (Files.isRegularFile(file) ? Files.size(file) : -1)
                    + " " + Files.getLastModifiedTime(file));
            }
            return entries;
        }
    }

    /** A child JVM run with exactly these JVM options (none of the test JVM's), its exit code and output. */
    private static Child run(final List<String> jvmOptions, final String mode, final Path journal) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-ea");
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(withoutJUnit(System.getProperty("java.class.path")));
        command.add(JvmCheckChild.class.getName());
        command.add(mode);
        command.add(journal.toString());
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("JDK_JAVA_OPTIONS");
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        final Process process = builder.start();
        final byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the child ends");
        return new Child(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    /**
     * @return the class path without JUnit's jars: Chronicle stays quiet (no analytics, no banner) when it sees JUnit,
     *         and the child is a service's JVM, which has none.
     */
    private static String withoutJUnit(final String classPath)
    {
        final List<String> kept = new ArrayList<>();
        for (final String entry : classPath.split(java.io.File.pathSeparator))
        {
            final String name = Path.of(entry).getFileName().toString();
            if (!name.startsWith("junit-") && !name.startsWith("opentest4j") && !name.startsWith("apiguardian"))
            {
                kept.add(entry);
            }
        }
        return String.join(java.io.File.pathSeparator, kept);
    }

    private static final class Child
    {
        final int exit;
        final String output;

        Child(final int exit, final String output)
        {
            this.exit = exit;
            this.output = output;
        }
    }
}
