package dev.weir.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a child JVM that runs a class of the test classpath with the JVM flags Chronicle
 * Queue needs ({@code target/weir.jvmopts}, written by the build from the parent pom), as the {@code weir}
 * launcher runs the CLI. The tests that kill, starve or lock out a real process start it from here.
 * Stateless; safe from any thread.
 */
public final class ChildJvm
{
    /**
     * The system property that names the class of the {@code weir} command line: the CLI module's test
     * configuration sets it, so this module does not depend on the CLI's.
     */
    public static final String WEIR_MAIN_PROPERTY = "weir.child.main";

    private ChildJvm()
    {
    }

    /**
     * @param maxHeap the child's {@code -Xmx} value, for example {@code "512m"}
     * @param main    the class whose {@code main} the child runs
     * @param args    its arguments
     * @return the command: java, the Chronicle flags, the heap, this test's classpath, the class and its arguments
     */
    public static List<String> command(final String maxHeap, final Class<?> main, final String... args)
    {
        return command(maxHeap, main.getName(), args);
    }

    /** The prefix of the system properties a child inherits: the engine's test knobs ({@code weir.test.*}). */
    public static final String TEST_PROPERTIES = "weir.test.";

    /**
     * @param maxHeap   the child's {@code -Xmx} value
     * @param mainClass the name of the class whose {@code main} the child runs (on this test's classpath)
     * @param args      its arguments
     * @return the command, as {@link #command(String, Class, String...)}
     */
    public static List<String> command(final String maxHeap, final String mainClass, final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        try
        {
            command.addAll(List.of(Files.readString(Path.of("target", "weir.jvmopts")).trim().split("\\s+")));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("the build writes target/weir.jvmopts (mvn process-resources)", ex);
        }
        command.add("-Xmx" + maxHeap);
        for (final String name : System.getProperties().stringPropertyNames())
        {
            if (name.startsWith(TEST_PROPERTIES))
            {
                command.add("-D" + name + "=" + System.getProperty(name)); // a test's knob reaches its children
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(List.of(args));
        return command;
    }

    /**
     * @param maxHeap  the child's {@code -Xmx} value
     * @param weirArgs the command line
     * @return the command for {@code weir} itself (the class {@value #WEIR_MAIN_PROPERTY} names)
     */
    public static List<String> weir(final String maxHeap, final String... weirArgs)
    {
        final String main = System.getProperty(WEIR_MAIN_PROPERTY);
        if (main == null || main.isBlank())
        {
            throw new IllegalStateException("set the system property " + WEIR_MAIN_PROPERTY
                + " to the command line's class (the cli module's surefire configuration does)");
        }
        return command(maxHeap, main, weirArgs);
    }
}
