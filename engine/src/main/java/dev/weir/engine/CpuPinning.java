package dev.weir.engine;

import java.util.Arrays;
import java.util.BitSet;

import net.openhft.affinity.Affinity;
import net.openhft.affinity.AffinityLock;
import net.openhft.affinity.impl.NullAffinity;

/**
 * Which CPU each of a pipeline's threads runs on, through OpenHFT Affinity: stage thread {@code i} on
 * {@code stages[i]} (unpinned if there are fewer CPUs than stage threads), the publisher thread on
 * {@code publisher} (the {@link PipelineLayout#INLINE} layout has none: it reads the journal on stage
 * thread 0). A thread is pinned with {@link Affinity#setAffinity(BitSet)} to exactly its CPU when it starts,
 * and its previous affinity is restored when its task ends. Weir takes no {@link AffinityLock}: it reserves
 * nothing against other processes (isolate the CPUs with {@code isolcpus} or a cpuset for that).
 * <p>
 * Immutable; safe to share.
 */
final class CpuPinning
{
    /** No thread pinned. */
    static final CpuPinning NONE = new CpuPinning(new int[0], -1);

    private final int[] stages;
    private final int publisher;

    private CpuPinning(final int[] stages, final int publisher)
    {
        this.stages = stages;
        this.publisher = publisher;
    }

    /**
     * @param stages    the stage threads' CPUs, in thread order; may be empty.
     * @param publisher the publisher thread's CPU, or -1.
     * @return the pinning, checked.
     * @throws CpuPinningException if a CPU does not exist on this machine or affinity is not supported.
     */
    static CpuPinning of(final int[] stages, final int publisher)
    {
        if (stages.length == 0 && publisher < 0)
        {
            return NONE;
        }
        if (Affinity.getAffinityImpl() instanceof NullAffinity)
        {
            throw new CpuPinningException("cannot pin threads: OpenHFT Affinity has no native support here (it needs JNA, on Linux, macOS or Windows)");
        }
        for (final int cpu : stages)
        {
            check(cpu);
        }
        if (publisher >= 0)
        {
            check(publisher);
        }
        return new CpuPinning(stages.clone(), publisher);
    }

    private static void check(final int cpu)
    {
        if (cpu < 0 || cpu >= AffinityLock.PROCESSORS)
        {
            throw new CpuPinningException("cannot pin a thread to CPU " + cpu + ": this machine has CPUs 0 to " + (AffinityLock.PROCESSORS - 1));
        }
    }

    /**
     * @param index a stage thread's index.
     * @return its CPU, or -1 to leave it unpinned.
     */
    int stageCpu(final int index)
    {
        return index < stages.length ? stages[index] : -1;
    }

    /**
     * @return the publisher thread's CPU, or -1.
     */
    int publisherCpu()
    {
        return publisher;
    }

    /**
     * @return e.g. {@code stages=[1] publisher=0}, or {@code none}.
     */
    String describe()
    {
        return this == NONE ? "none" : "stages=" + Arrays.toString(stages) + " publisher=" + (publisher < 0 ? "unpinned" : publisher);
    }

    /**
     * Pin the calling thread to one CPU.
     *
     * @param cpu the CPU.
     * @return the thread's affinity before, to {@link #restore(BitSet)}.
     * @throws CpuPinningException if the operating system did not apply it.
     */
    static BitSet pin(final int cpu)
    {
        final BitSet before = Affinity.getAffinity();
        final BitSet only = new BitSet();
        only.set(cpu);
        try
        {
            Affinity.setAffinity(only);
        }
        catch (final RuntimeException ex)
        {
            throw pinningFailed(cpu, ex.toString());
        }
        final BitSet now = Affinity.getAffinity();
        if (!only.equals(now))
        {
            throw pinningFailed(cpu, "its affinity is " + now);
        }
        return before;
    }

    private static CpuPinningException pinningFailed(final int cpu, final String why)
    {
        return new CpuPinningException("could not pin thread " + Thread.currentThread().getName() + " to CPU " + cpu + ": " + why);
    }

    /**
     * Give the calling thread back the affinity it had before {@link #pin(int)}.
     *
     * @param before what {@link #pin(int)} returned.
     */
    static void restore(final BitSet before)
    {
        Affinity.setAffinity(before);
    }
}
