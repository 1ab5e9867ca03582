from cuda2rocm.cli.main import main

raise SystemExit(main())
