"""AESVM (Nandan et al. 2014): an SVM on approximate extreme points against SVC on all data."""

from _benchkit import Row, measure
from sklearn.svm import SVC

from aesvm import AESVC

from . import REGISTRY

C, GAMMA = 1.0, 0.1


@REGISTRY.register("aesvc")
def aesvc(data, size):
    split = data["blobs"]
    X, y = split.X_train, split.y_train
    ours_t, ours = measure(
        lambda: AESVC(C=C, gamma=GAMMA, reuse_representatives=False, random_state=0).fit(X, y),
        repeat=1,
    )
    base_t, base = measure(lambda: SVC(kernel="rbf", C=C, gamma=GAMMA).fit(X, y), repeat=1)
    acc = f"{ours.score(split.X_test, split.y_test):.3f} / "
    acc += f"{base.score(split.X_test, split.y_test):.3f}"
    return [
        Row(
            "AESVC rbf [blobs]",
            ours_t,
            "SVC(rbf), all data",
            base_t,
            "M/N",
            f"{ours.n_representatives_ / len(y):.2f}",
            acc,
        )
    ]
