"""The one fixture numba-cuda's ``CUDATestCase`` asks for
(``initialize_from_pytest_config``): whether to dump reproducers of failed
FileCheck tests, which ksem's CI sample never does."""

import pytest


@pytest.fixture(scope="class")
def initialize_from_pytest_config(request):
    request.cls._dump_failed_filechecks = False
