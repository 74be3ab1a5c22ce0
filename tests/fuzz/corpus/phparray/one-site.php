<?php
return ['sites' => ['default' => ['name' => config('app.name'), 'locale' => 'en_US', 'url' => env('APP_URL', '/')]]];
