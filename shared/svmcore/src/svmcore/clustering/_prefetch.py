"""A software prefetch for Numba kernels that scatter into tables larger than the caches.

AID's per-row passes add each row into its cluster's entry of a K-sized table
(:func:`svmcore.clustering.group_sums`; at 64M rows K is about 424,000, a 34 MB table).
The entries a chunk's rows hit are random, so every row waits for a cache miss that the
hardware prefetchers cannot foresee; the labels of the rows ahead say which entries come
next, and asking for them early overlaps those misses (one 500,000 x 10 chunk into
K = 424,126 groups: 18.7 -> 11.6 ms). A prefetch changes no value: the arithmetic is
the same.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["prefetch_row"]

#: How many rows ahead a kernel prefetches: about the misses a core keeps in flight.
PREFETCH_AHEAD = 16


@intrinsic
def prefetch_row(typingctx, table, k):
    """Ask the cache for row ``k`` of a 2-d ``table`` (entry ``k`` if 1-d) before its use.

    In 2-d two prefetches, at the row's first and last entries (a row of 10 float64
    spans two cache lines); ``k`` must be a valid row (the address is computed, not
    checked).
    """
    if not (isinstance(table, types.Array) and table.ndim in (1, 2)):
        return None
    if not isinstance(k, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        table_type, k_type = signature.args
        array = context.make_array(table_type)(context, builder, args[0])
        row = context.cast(builder, args[1], k_type, types.intp)
        entries = [[row]]
        if table_type.ndim == 2:
            last = builder.sub(
                cgutils.unpack_tuple(builder, array.shape, 2)[1],
                context.get_constant(types.intp, 1),
            )
            entries = [[row, context.get_constant(types.intp, 0)], [row, last]]
        byte_ptr = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        prefetch = cgutils.get_or_insert_function(
            builder.module,
            ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32]),
            "llvm.prefetch.p0i8",
        )
        for entry in entries:
            address = cgutils.get_item_pointer(context, builder, table_type, array, entry)
            # write access, high temporal locality, data cache
            flags = [ir.Constant(i32, 1), ir.Constant(i32, 3), ir.Constant(i32, 1)]
            builder.call(prefetch, [builder.bitcast(address, byte_ptr), *flags])
        return context.get_dummy_value()

    return types.void(table, k), codegen
